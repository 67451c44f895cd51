using System.Net;
using Keygate.Client.Generated.Models;

namespace Keygate.Client.Tests;

/// <summary>The models hold "X or null" fields as plain nullable C# types, not Kiota composed wrappers.</summary>
public class ModelTests
{
    [Fact]
    public async Task AKeysExpiryIsSentAndReadAsADateOnly()
    {
        var test = new TestClient();
        test.Stub.Answer(HttpStatusCode.Created, """{"id":"key_1","expiresAt":"2027-01-31","revokedAt":null,"secret":"kg_test_x"}""");

        var key = await test.Client.Keys.CreateAsync(new CreateKeyRequest { Name = "ci", Scopes = ["order:r"], ExpiresAt = new DateOnly(2027, 1, 31) });

        Assert.Contains("\"expiresAt\":\"2027-01-31\"", Assert.Single(test.Stub.Requests).Body);
        DateOnly? expiresAt = key.ExpiresAt;
        Assert.Equal(new DateOnly(2027, 1, 31), expiresAt);
        DateTimeOffset? revokedAt = key.RevokedAt;
        Assert.Null(revokedAt);
    }

    [Fact]
    public async Task ACartsCheckoutTimeIsADateTimeOffsetOrNull()
    {
        var test = new TestClient();
        test.Stub
            .Answer(HttpStatusCode.OK, """{"id":"crt_1","customerId":null,"checkedOutAt":null}""")
            .Answer(HttpStatusCode.OK, """{"id":"crt_1","customerId":"cus_1","checkedOutAt":"2026-11-26T12:00:00.000Z"}""");

        var open = await test.Client.Carts.GetAsync("crt_1");
        var done = await test.Client.Carts.GetAsync("crt_1");

        Assert.Null(open.CheckedOutAt);
        Assert.Null(open.CustomerId);
        DateTimeOffset? checkedOutAt = done.CheckedOutAt;
        Assert.Equal(new DateTimeOffset(2026, 11, 26, 12, 0, 0, TimeSpan.Zero), checkedOutAt);
        Assert.Equal("cus_1", done.CustomerId);
    }

    [Fact]
    public async Task NullableEnumsIntegersAndListsArePlain()
    {
        var test = new TestClient();
        test.Stub.Answer(
            HttpStatusCode.OK,
            """{"id":"we_1","eventTypes":["order.created"],"disabledReason":"failing","failingSince":"2026-11-26T12:00:00Z"}""");

        var endpoint = await test.Client.Webhooks.GetEndpointAsync("we_1");

        Assert.Equal([EventType.OrderCreated], endpoint.EventTypes!);
        Assert.Equal(WebhookEndpoint_disabledReason.Failing, endpoint.DisabledReason);
        Assert.Equal(2026, endpoint.FailingSince?.Year);
    }

    [Fact]
    public async Task CreateCartSendsTheCustomerAsAPlainString()
    {
        var test = new TestClient();
        test.Stub.Answer(HttpStatusCode.Created, """{"id":"crt_1"}""").Answer(HttpStatusCode.Created, """{"id":"crt_2"}""");

        await test.Client.Carts.CreateAsync("WEB_DE", customerId: "cus_1");
        await test.Client.Carts.CreateAsync("WEB_DE");

        Assert.Equal("""{"channel":"WEB_DE","customerId":"cus_1"}""", test.Stub.Requests[0].Body);
        Assert.Equal("""{"channel":"WEB_DE"}""", test.Stub.Requests[1].Body);
    }
}
