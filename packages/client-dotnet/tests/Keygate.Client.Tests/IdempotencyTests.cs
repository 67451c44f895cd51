using System.Net;

namespace Keygate.Client.Tests;

public class IdempotencyTests
{
    private const string Cart = """{"id":"crt_1","channel":"WEB_DE","currency":"EUR","lines":[],"checkedOutAt":null}""";
    private const string Order = """{"id":"ord_1","cartId":"crt_1","status":"placed","currency":"EUR"}""";
    private const string Stock = """{"sku":"KG-00001","onHand":3,"reserved":0,"available":3,"updatedAt":"2026-11-26T12:00:00Z"}""";
    private const string Unavailable = """{"type":"https://keygate.dev/problems/upstream-unavailable","title":"Unavailable","status":503,"code":"UPSTREAM_UNAVAILABLE"}""";

    [Fact]
    public async Task EveryPostAndPatchCarriesAFreshUuidV4()
    {
        var test = new TestClient();
        test.Stub.Answer(HttpStatusCode.OK, Cart).Answer(HttpStatusCode.OK, Cart).Answer(HttpStatusCode.OK, Cart);

        await test.Client.Carts.CreateAsync("WEB_DE");
        await test.Client.Carts.CreateAsync("WEB_DE");
        await test.Client.Carts.UpdateItemAsync("crt_1", "KG-00001", 2);

        var keys = test.Stub.Requests.Select(r => r.Headers["Idempotency-Key"]).ToList();
        Assert.All(keys, key => Assert.Equal(4, Guid.Parse(key).Version));
        Assert.Equal(3, keys.Distinct().Count());
        Assert.Equal(HttpMethod.Patch, test.Stub.Requests[2].Method);
    }

    [Fact]
    public async Task GetPutAndDeleteCarryNoKey()
    {
        var test = new TestClient();
        test.Stub.Answer(HttpStatusCode.OK, Stock).Answer(HttpStatusCode.OK, Stock).Answer(HttpStatusCode.OK, Cart);

        await test.Client.Stock.GetAsync("KG-00001");
        await test.Client.Stock.SetAsync("KG-00001", 3);
        await test.Client.Carts.RemoveItemAsync("crt_1", "KG-00001");

        Assert.All(test.Stub.Requests, r => Assert.False(r.Headers.ContainsKey("Idempotency-Key")));
    }

    [Fact]
    public async Task TheCallersKeyIsSentAsItIs()
    {
        var test = new TestClient();
        test.Stub.Answer(HttpStatusCode.OK, Order);

        await test.Client.Carts.CheckoutAsync("crt_1", new KeygateRequestOptions { IdempotencyKey = "checkout-crt_1" });

        Assert.Equal("checkout-crt_1", Assert.Single(test.Stub.Requests).Headers["Idempotency-Key"]);
    }

    [Theory]
    [InlineData("")]
    [InlineData("with space")]
    [InlineData("ümlaut")]
    public async Task AKeyOutsideVisibleAsciiIsRefusedBeforeSending(string key)
    {
        var test = new TestClient();

        await Assert.ThrowsAsync<ArgumentException>(() => test.Client.Carts.CheckoutAsync("crt_1", new KeygateRequestOptions { IdempotencyKey = key }));

        Assert.Empty(test.Stub.Requests);
    }

    [Fact]
    public async Task AKeyOver255CharactersIsRefused()
    {
        var test = new TestClient();

        await Assert.ThrowsAsync<ArgumentException>(() => test.Client.Carts.CreateAsync("WEB_DE", options: new KeygateRequestOptions { IdempotencyKey = new string('k', 256) }));

        Assert.Empty(test.Stub.Requests);
    }

    [Fact]
    public async Task ACheckoutWhoseAnswerIsLostIsRetriedWithTheSameKeyAndBody()
    {
        var test = new TestClient();
        test.Stub.ConnectionLost().Answer(HttpStatusCode.OK, Order, ("Idempotent-Replayed", "true"));

        var order = await test.Client.Carts.CheckoutAsync("crt_1");

        Assert.Equal("ord_1", order.Id);
        Assert.Equal(2, test.Stub.Requests.Count);
        Assert.Equal(test.Stub.Requests[0].Headers["Idempotency-Key"], test.Stub.Requests[1].Headers["Idempotency-Key"]);
        Assert.Equal(test.Stub.Requests[0].Body, test.Stub.Requests[1].Body);
        Assert.Equal([KeygateHandlerBackoff(0)], test.Waits);
    }

    [Fact]
    public async Task APostIsRetriedAfterA429WithTheSameKey()
    {
        var test = new TestClient();
        test.Stub.RateLimited(2).Answer(HttpStatusCode.OK, Cart);

        await test.Client.Carts.CreateAsync("WEB_DE", customerId: "cus_1");

        Assert.Equal([TimeSpan.FromSeconds(2)], test.Waits);
        Assert.Equal(test.Stub.Requests[0].Headers["Idempotency-Key"], test.Stub.Requests[1].Headers["Idempotency-Key"]);
        Assert.Equal("""{"channel":"WEB_DE","customerId":"cus_1"}""", test.Stub.Requests[1].Body);
    }

    [Fact]
    public async Task APatchIsRetriedAfterA503WaitingItsRetryAfter()
    {
        var test = new TestClient();
        test.Stub.Answer(HttpStatusCode.ServiceUnavailable, Unavailable, ("Retry-After", "3")).Answer(HttpStatusCode.OK, """{"id":"cus_1","name":"Ada"}""");

        var customer = await test.Client.Customers.UpdateAsync("cus_1", new() { Name = "Ada" }, new KeygateRequestOptions { IdempotencyKey = "rename-cus_1" });

        Assert.Equal("Ada", customer.Name);
        Assert.Equal([TimeSpan.FromSeconds(3)], test.Waits);
        Assert.All(test.Stub.Requests, r => Assert.Equal("rename-cus_1", r.Headers["Idempotency-Key"]));
    }

    [Fact]
    public async Task A503WithoutRetryAfterBacksOffAndDoubles()
    {
        var test = new TestClient();
        test.Stub.Answer(HttpStatusCode.ServiceUnavailable, Unavailable).ConnectionLost().Answer(HttpStatusCode.OK, Order);

        await test.Client.Orders.CancelAsync("ord_1");

        Assert.Equal([TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(2)], test.Waits);
        Assert.Equal(3, test.Stub.Requests.Count);
    }

    [Fact]
    public async Task AfterTheLastRetryTheConnectionErrorIsThrown()
    {
        var test = new TestClient();
        test.Stub.ConnectionLost().ConnectionLost().ConnectionLost();

        await Assert.ThrowsAsync<HttpRequestException>(() => test.Client.Carts.CheckoutAsync("crt_1"));

        Assert.Equal(3, test.Stub.Requests.Count);
        Assert.Single(test.Stub.Requests.Select(r => r.Headers["Idempotency-Key"]).Distinct());
    }

    [Theory]
    [InlineData(HttpStatusCode.BadGateway)]
    [InlineData(HttpStatusCode.GatewayTimeout)]
    public async Task A502Or504IsRetriedForAGetButNotForAPost(HttpStatusCode status)
    {
        var test = new TestClient();
        test.Stub.Answer(status).Answer(HttpStatusCode.OK, Stock).Answer(status);

        await test.Client.Stock.GetAsync("KG-00001");
        // The first checkout may still be running: its repeat would only meet IDEMPOTENCY_KEY_IN_USE.
        var problem = await Assert.ThrowsAsync<KeygateProblemException>(() => test.Client.Carts.CheckoutAsync("crt_1"));

        Assert.Equal((int)status, problem.Status);
        Assert.Equal([TimeSpan.FromSeconds(1)], test.Waits);
        Assert.Equal(3, test.Stub.Requests.Count);
    }

    [Fact]
    public async Task OtherErrorsAreNotRetried()
    {
        var test = new TestClient();
        test.Stub.Answer(HttpStatusCode.Conflict, """{"type":"about:blank","title":"Conflict","status":409,"code":"CART_CHECKED_OUT"}""");

        var problem = await Assert.ThrowsAsync<KeygateProblemException>(() => test.Client.Carts.CheckoutAsync("crt_1"));

        Assert.Equal("CART_CHECKED_OUT", problem.Code);
        Assert.Single(test.Stub.Requests);
    }

    [Fact]
    public async Task WithRetriesOffAPostStillCarriesAKeyButIsSentOnce()
    {
        var test = new TestClient(o => o.Retry = KeygateRetryOptions.None);
        test.Stub.ConnectionLost();

        await Assert.ThrowsAsync<HttpRequestException>(() => test.Client.Carts.CheckoutAsync("crt_1"));

        Assert.True(Assert.Single(test.Stub.Requests).Headers.ContainsKey("Idempotency-Key"));
    }

    [Fact]
    public async Task TheCallerCancellingIsNotRetried()
    {
        using var cancellation = new CancellationTokenSource();
        var test = new TestClient();
        test.Stub.Answer(HttpStatusCode.OK, Order);
        cancellation.Cancel();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => test.Client.Carts.CheckoutAsync("crt_1", cancellationToken: cancellation.Token));

        Assert.Empty(test.Waits);
    }

    private static TimeSpan KeygateHandlerBackoff(int attempt) => KeygateHandler.Backoff(attempt);
}
