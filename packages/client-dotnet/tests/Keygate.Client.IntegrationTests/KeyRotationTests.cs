using Keygate.Client.Generated.Models;

namespace Keygate.Client.IntegrationTests;

public class KeyRotationTests
{
    [Fact]
    public async Task RotatesAKeyAndClosesTheOldSecret()
    {
        var key = await Env.CreateKeyAsync("dotnet-rotate", "article:r");
        using var admin = Env.Client(Env.AdminKey);
        using var old = Env.Client(key.Secret!);
        await old.Catalog.ListChannelsAsync();

        var rotated = await admin.Keys.RotateAsync(key.Id!, overlapDays: 1);
        Assert.NotEqual(key.Secret, rotated.Secret);
        using var renewed = Env.Client(rotated.Secret!);
        await renewed.Catalog.ListChannelsAsync();
        await old.Catalog.ListChannelsAsync();

        var closed = await admin.Keys.CloseOldSecretAsync(key.Id!);
        Assert.Equal(key.Id, closed.Id);
        var refused = await Assert.ThrowsAsync<KeygateProblemException>(() => old.Catalog.ListChannelsAsync());
        Assert.Equal(401, refused.Status);
        await renewed.Catalog.ListChannelsAsync();

        var activity = await admin.Keys.ListActivityAsync(key.Id!);
        var actions = activity.Items!.Select(entry => entry.Action).ToList();
        Assert.Contains(ActivityEntry_action.KeyRotated, actions);
        Assert.Contains(ActivityEntry_action.KeySecret_closed, actions);
    }

    [Fact]
    public async Task AKeyAboutToExpireIsReported()
    {
        var tomorrow = DateOnly.FromDateTime(DateTime.UtcNow.AddDays(1));
        using var admin = Env.Client(Env.AdminKey);
        var key = await admin.Keys.CreateAsync(new CreateKeyRequest
        {
            Name = "dotnet-expiring",
            Environment = CreateKeyRequest_environment.Test,
            Scopes = ["article:r"],
            ExpiresAt = tomorrow,
        });
        var notices = new List<KeygateNotice>();
        using var client = Env.Client(key.Secret!, o => o.OnNotice = notices.Add);

        await client.Catalog.ListChannelsAsync();
        await client.Catalog.ListChannelsAsync();

        var notice = Assert.IsType<KeyExpiryNotice>(Assert.Single(notices));
        Assert.Equal(tomorrow, notice.ExpiresOn);
        Assert.InRange(notice.DaysLeft ?? 0, 1, 2);
    }
}
