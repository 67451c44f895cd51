using System.Net;
using Keygate.Client.Generated.Models;

namespace Keygate.Client.Tests;

/// <summary>Rules 4 and 5 of the handler: spent budgets (429) and an Idempotency-Key still in use (409).</summary>
public class BudgetRetryTests
{
    private const string Channels = """{"data":[{"code":"WEB_DE","currency":"EUR","country":"DE"}]}""";
    private const string CreditsAnswer = """{"remaining":150,"refill":null,"refillsAt":null}""";

    private static string Problem(string code, int status, string extensions = "") =>
        $$"""{"type":"https://keygate.dev/problems/x","title":"{{code}}","status":{{status}},"detail":"{{code}} happened","code":"{{code}}"{{extensions}}}""";

    private static (string, string)[] RetryAfter(int? seconds) =>
        seconds is { } s ? [("Retry-After", s.ToString(System.Globalization.CultureInfo.InvariantCulture))] : [];

    [Fact]
    public async Task ADayQuotaIsNotSleptOnAndIsThrownAsATypedRateLimitException()
    {
        var test = new TestClient();
        test.Stub.Answer(HttpStatusCode.TooManyRequests, Problem("QUOTA_EXCEEDED", 429, ""","policy":"day","limit":2,"retryAfter":40000"""), RetryAfter(40000))
            .Answer(HttpStatusCode.OK, Channels);

        var error = await Assert.ThrowsAsync<KeygateRateLimitException>(() => test.Client.Catalog.ListChannelsAsync());

        Assert.Equal((429, KeygateProblemCodes.QuotaExceeded, "day"), (error.Status, error.Code, error.Policy));
        Assert.Equal(TimeSpan.FromSeconds(40000), error.RetryAfter);
        Assert.True(error.IsBudgetSpent);
        Assert.Empty(test.Waits);
        Assert.Single(test.Stub.Requests);
    }

    [Fact]
    public async Task AQuotaResettingWithinTheShortLimitIsRetriedAfterItsRetryAfter()
    {
        var test = new TestClient();
        var limit = (int)KeygateHandler.BudgetRetryAfterLimit.TotalSeconds;
        test.Stub.Answer(HttpStatusCode.TooManyRequests, Problem("QUOTA_EXCEEDED", 429, ""","policy":"day" """), RetryAfter(limit))
            .Answer(HttpStatusCode.OK, Channels);

        var channels = await test.Client.Catalog.ListChannelsAsync();

        Assert.Equal("WEB_DE", channels.Data![0].Code);
        Assert.Equal([KeygateHandler.BudgetRetryAfterLimit], test.Waits);
    }

    [Fact]
    public async Task CreditsExhaustedWithoutRetryAfterIsNeverRetriedEvenWithARateLimitReset()
    {
        var test = new TestClient();
        test.Stub.Answer(HttpStatusCode.TooManyRequests, Problem("CREDITS_EXHAUSTED", 429, ""","creditsRemaining":0,"cost":1"""),
                ("RateLimit-Policy", "\"minute\";q=100;w=60"), ("RateLimit", "\"minute\";r=99;t=5"))
            .Answer(HttpStatusCode.OK, Channels);

        var error = await Assert.ThrowsAsync<KeygateRateLimitException>(() => test.Client.Catalog.ListChannelsAsync());

        Assert.Equal(KeygateProblemCodes.CreditsExhausted, error.Code);
        Assert.Null(error.RetryAfter);
        Assert.Null(error.Policy);
        Assert.Empty(test.Waits);
    }

    [Fact]
    public async Task CreditsRefillingInSecondsAreRetried()
    {
        var test = new TestClient();
        test.Stub.Answer(HttpStatusCode.TooManyRequests, Problem("CREDITS_EXHAUSTED", 429, ""","retryAfter":3"""), RetryAfter(3))
            .Answer(HttpStatusCode.OK, Channels);

        await test.Client.Catalog.ListChannelsAsync();

        Assert.Equal([TimeSpan.FromSeconds(3)], test.Waits);
    }

    [Fact]
    public async Task AKeyInUseIsSentAgainAfterRetryAfterWithTheSameKeyAndBody()
    {
        var test = new TestClient();
        test.Stub.Answer(HttpStatusCode.Conflict, Problem("IDEMPOTENCY_KEY_IN_USE", 409, ""","retryAfter":2"""), RetryAfter(2))
            .Answer(HttpStatusCode.OK, CreditsAnswer);

        var credits = await test.Client.Identities.ChangeCreditsAsync("idt_1", new CreditsOperation { Increment = 50 });

        Assert.Equal(150, credits.Remaining);
        Assert.Equal([TimeSpan.FromSeconds(2)], test.Waits);
        var (first, again) = (test.Stub.Requests[0], test.Stub.Requests[1]);
        Assert.False(string.IsNullOrEmpty(first.Headers["Idempotency-Key"]));
        Assert.Equal(first.Headers["Idempotency-Key"], again.Headers["Idempotency-Key"]);
        Assert.Equal("""{"increment":50}""", again.Body);
    }

    [Fact]
    public async Task AKeyInUseWithoutRetryAfterWaitsTheBackoff()
    {
        var test = new TestClient();
        test.Stub.Answer(HttpStatusCode.Conflict, Problem("IDEMPOTENCY_KEY_IN_USE", 409)).Answer(HttpStatusCode.OK, CreditsAnswer);

        await test.Client.Keys.ChangeCreditsAsync("key_1", new CreditsOperation { Set = 150 });

        Assert.Equal([TimeSpan.FromSeconds(1)], test.Waits);
    }

    [Fact]
    public async Task Another409IsNotRetried()
    {
        var test = new TestClient();
        test.Stub.Answer(HttpStatusCode.Conflict, Problem("IDENTITY_EXISTS", 409)).Answer(HttpStatusCode.Created, "{}");

        var error = await Assert.ThrowsAsync<KeygateProblemException>(() => test.Client.Identities.CreateAsync(new CreateIdentityRequest { ExternalId = "acme" }));

        Assert.Equal(KeygateProblemCodes.IdentityExists, error.Code);
        Assert.Empty(test.Waits);
        Assert.Single(test.Stub.Requests);
    }

    [Fact]
    public async Task AKeyInUseIsThrownOnceTheRetriesAreSpent()
    {
        var test = new TestClient();
        for (var i = 0; i < 3; i++) test.Stub.Answer(HttpStatusCode.Conflict, Problem("IDEMPOTENCY_KEY_IN_USE", 409, ""","retryAfter":1"""), RetryAfter(1));

        var error = await Assert.ThrowsAsync<KeygateProblemException>(() => test.Client.Keys.ChangeCreditsAsync("key_1", new CreditsOperation { Set = 1 }));

        Assert.Equal(KeygateProblemCodes.IdempotencyKeyInUse, error.Code);
        Assert.Equal([TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(1)], test.Waits);
        Assert.Equal("""{"set":1}""", test.Stub.Requests[2].Body);
    }

    [Fact]
    public async Task IdentitiesArePagedAndTheExportComesAsTextOrAStream()
    {
        var test = new TestClient();
        static string Identity(int n) => $$"""{"id":"idt_{{n}}","externalId":"ext-{{n}}","environment":"live","planId":null,"meta":{},"limits":[],"quotas":[],"credits":null,"createdAt":"2026-11-28T10:00:00Z","updatedAt":"2026-11-28T10:00:00Z","version":1}""";
        const string Csv = "period,subject_type,subject_id,external_id,environment,outcome,calls,cost\n";
        test.Stub.Answer(HttpStatusCode.OK, $$"""{"items":[{{Identity(1)}},{{Identity(2)}}],"nextCursor":"c2"}""")
            .Answer(HttpStatusCode.OK, $$"""{"items":[{{Identity(3)}}],"nextCursor":null}""")
            .Answer(HttpStatusCode.OK, Csv).Respond(r => r.Content = new StringContent(Csv, System.Text.Encoding.UTF8, "text/csv"))
            .Answer(HttpStatusCode.OK, "{\"calls\":2}\n").Respond(r => r.Content = new StringContent("{\"calls\":2}\n", System.Text.Encoding.UTF8, "application/x-ndjson"));

        var ids = new List<string>();
        await foreach (var identity in test.Client.Identities.ListAutoPagingAsync(pageSize: 2)) ids.Add(identity.Id!);
        var text = await test.Client.Identities.ExportUsageAsync("2026-11");
        await using var stream = await test.Client.Identities.ExportUsageStreamAsync("2026-11", Generated.V2.Auth.Usage.Export.GetFormatQueryParameterType.Jsonl);
        var lines = await new StreamReader(stream).ReadToEndAsync();

        Assert.Equal(["idt_1", "idt_2", "idt_3"], ids);
        Assert.Equal(Csv, text);
        Assert.Equal("{\"calls\":2}\n", lines);
        Assert.Equal("?cursor=c2&limit=2", test.Stub.Requests[1].Uri.Query);
        Assert.Equal("?period=2026-11&format=jsonl", test.Stub.Requests[3].Uri.Query);
    }
}

public class PeriodUsageTests
{
    [Fact]
    public async Task OutcomesAreReadByNameWithCallsAndCost()
    {
        var test = new TestClient();
        test.Stub.Answer(HttpStatusCode.OK, """{"period":"2026-11-28","from":"2026-11-28","to":"2026-11-29","total":{"calls":3,"cost":2},"outcomes":{"VALID":{"calls":2,"cost":2},"QUOTA_EXCEEDED":{"calls":1,"cost":0}}}""");

        var usage = await test.Client.Identities.GetUsageAsync("idt_1", "2026-11-28");

        Assert.Equal(new OutcomeUsage(2, 2), usage.Outcome("VALID"));
        Assert.Equal(new OutcomeUsage(1, 0), usage.Outcome("QUOTA_EXCEEDED"));
        Assert.Equal(new OutcomeUsage(0, 0), usage.Outcome("CREDITS_EXHAUSTED"));
        Assert.Equal(2, usage.OutcomesByName().Count);
        Assert.Equal("?period=2026-11-28", test.Stub.Requests[0].Uri.Query);
    }
}
