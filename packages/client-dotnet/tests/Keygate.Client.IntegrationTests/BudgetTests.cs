using Keygate.Client.Generated.Models;

namespace Keygate.Client.IntegrationTests;

/// <summary>
/// Selling a plan, the same scenario as the TypeScript (tests/e2e/client.test.ts) and PHP (BudgetTest.php) clients:
/// a day quota of 2 refuses the 3rd call with a typed 429, the identity's credits are topped up, its usage of the
/// day shows the calls by outcome.
/// </summary>
public class BudgetTests
{
    [Fact]
    public async Task ADayQuotaRefusesTheThirdCallTypedCreditsTopUpAndUsageShowsIt()
    {
        using var admin = Env.Client(Env.AdminKey);
        var plan = await admin.Plans.CreateAsync(new CreatePlanRequest
        {
            Name = "dotnet-daily-2",
            Limits = [],
            Quotas = [new CreatePlanRequest_quotas { Period = CreatePlanRequest_quotas_period.Day, Limit = 2 }],
        });
        var identity = await admin.Identities.CreateAsync(new CreateIdentityRequest
        {
            ExternalId = $"dotnet-customer-{Guid.NewGuid():N}",
            PlanId = plan.Id,
            Credits = new CreateIdentityRequest_credits { Remaining = 100 },
        });
        var key = await admin.Keys.CreateAsync(new CreateKeyRequest { Name = "dotnet-budget", Scopes = ["article:r"], IdentityId = identity.Id });
        using var shop = Env.Client(key.Secret!);

        await shop.Catalog.ListProductsAsync("WEB_DE", limit: 1);
        await shop.Catalog.ListProductsAsync("WEB_DE", limit: 1);
        var refused = await Assert.ThrowsAsync<KeygateRateLimitException>(() => shop.Catalog.ListProductsAsync("WEB_DE", limit: 1));

        Assert.Equal((429, KeygateProblemCodes.QuotaExceeded, "day"), (refused.Status, refused.Code, refused.Policy));
        Assert.True(refused.RetryAfter > TimeSpan.Zero, "the quota resets at the next UTC midnight");
        Assert.Equal(98, (await admin.Identities.GetCreditsAsync(identity.Id!)).Remaining);
        var topped = await admin.Identities.ChangeCreditsAsync(identity.Id!, new CreditsOperation { Increment = 50 });
        Assert.Equal(148, topped.Remaining);
        Assert.Equal([key.Id], (await admin.Identities.GetAsync(identity.Id!)).Keys!.Select(k => k.Id));

        var period = DateTime.UtcNow.ToString("yyyy-MM-dd", System.Globalization.CultureInfo.InvariantCulture);
        // Usage is written about once a second: read until the three calls are counted.
        PeriodUsage usage;
        var until = DateTime.UtcNow.AddSeconds(20);
        do
        {
            usage = await admin.Identities.GetUsageAsync(identity.Id!, period);
            if (usage.Total?.Calls == 3) break;
            await Task.Delay(100);
        }
        while (DateTime.UtcNow < until);
        Assert.Equal(3, usage.Total?.Calls);
        Assert.Equal(2, usage.Outcome("VALID").Calls);
        Assert.Equal(1, usage.Outcome("QUOTA_EXCEEDED").Calls);
    }
}
