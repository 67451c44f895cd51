using System.Net;

namespace Keygate.Client.Tests;

public class RetryTests
{
    private const string Stock = """{"sku":"KG-00001","onHand":3,"reserved":0,"available":3,"updatedAt":"2026-11-26T12:00:00Z"}""";

    [Fact]
    public async Task GetIsRetriedAfterRetryAfterAndSucceeds()
    {
        var test = new TestClient();
        test.Stub.RateLimited(3).Answer(HttpStatusCode.OK, Stock);

        var stock = await test.Client.Stock.GetAsync("KG-00001");

        Assert.Equal(3, stock.OnHand);
        Assert.Equal([TimeSpan.FromSeconds(3)], test.Waits);
        Assert.Equal(2, test.Stub.Requests.Count);
    }

    [Fact]
    public async Task PutIsRetriedWithTheSameBody()
    {
        var test = new TestClient();
        test.Stub.RateLimited(1).Answer(HttpStatusCode.OK, Stock);

        await test.Client.Stock.SetAsync("KG-00001", 3);

        Assert.Equal(2, test.Stub.Requests.Count);
        Assert.All(test.Stub.Requests, r => Assert.Equal(HttpMethod.Put, r.Method));
        Assert.Equal("""{"onHand":3}""", test.Stub.Requests[0].Body);
        Assert.Equal(test.Stub.Requests[0].Body, test.Stub.Requests[1].Body);
        Assert.Equal("application/json", test.Stub.Requests[1].Headers["Content-Type"].Split(';')[0]);
        Assert.Equal("Bearer kg_test_abcdefgh_secret", test.Stub.Requests[1].Headers["Authorization"]);
    }

    [Fact]
    public async Task DeleteIsRetried()
    {
        var test = new TestClient();
        test.Stub.RateLimited(2).Answer(HttpStatusCode.NoContent);

        await test.Client.Pricing.DeletePriceAsync("price_1");

        Assert.Equal([TimeSpan.FromSeconds(2)], test.Waits);
        Assert.Equal(2, test.Stub.Requests.Count);
    }

    [Fact]
    public async Task GivesUpAfterTwoRetries()
    {
        var test = new TestClient();
        test.Stub.RateLimited(1).RateLimited(1).RateLimited(1);

        var problem = await Assert.ThrowsAsync<KeygateRateLimitException>(() => test.Client.Stock.GetAsync("KG-00001"));

        Assert.Equal(429, problem.Status);
        Assert.Equal(3, test.Stub.Requests.Count);
        Assert.Equal(2, test.Waits.Count);
    }

    [Fact]
    public async Task ThrowsAtOnceWhenTheWaitWouldExceedTheBudget()
    {
        var test = new TestClient();
        test.Stub.RateLimited(40).RateLimited(30);

        var problem = await Assert.ThrowsAsync<KeygateRateLimitException>(() => test.Client.Stock.GetAsync("KG-00001"));

        Assert.Equal([TimeSpan.FromSeconds(40)], test.Waits);
        Assert.Equal(TimeSpan.FromSeconds(30), problem.RetryAfter);
        Assert.Equal(2, test.Stub.Requests.Count);
    }

    [Fact]
    public async Task AWaitLongerThanSixtySecondsIsNotWaited()
    {
        var test = new TestClient();
        test.Stub.RateLimited(61);

        await Assert.ThrowsAsync<KeygateRateLimitException>(() => test.Client.Stock.GetAsync("KG-00001"));

        Assert.Empty(test.Waits);
    }

    [Fact]
    public async Task RetriesCanBeTurnedOff()
    {
        var test = new TestClient(o => o.Retry = KeygateRetryOptions.None);
        test.Stub.RateLimited(1);

        var problem = await Assert.ThrowsAsync<KeygateRateLimitException>(() => test.Client.Stock.GetAsync("KG-00001"));

        Assert.Equal("RATE_LIMITED", problem.Code);
        Assert.Single(test.Stub.Requests);
        Assert.Empty(test.Waits);
    }

    [Fact]
    public async Task CustomBudgetIsHonoured()
    {
        var test = new TestClient(o => o.Retry = new KeygateRetryOptions { MaxRetries = 1, MaxWait = TimeSpan.FromSeconds(5) });
        test.Stub.RateLimited(5).RateLimited(1);

        await Assert.ThrowsAsync<KeygateRateLimitException>(() => test.Client.Stock.GetAsync("KG-00001"));

        Assert.Equal([TimeSpan.FromSeconds(5)], test.Waits);
        Assert.Equal(2, test.Stub.Requests.Count);
    }

    [Fact]
    public async Task AnHttpDateRetryAfterIsWaitedRelativeToNow()
    {
        var test = new TestClient();
        // The RateLimit reset says 20 s: the date, which says 7 s, must win.
        test.Stub.RateLimited(20, TestClient.Now.AddSeconds(7).ToString("R")).Answer(HttpStatusCode.OK, Stock);

        await test.Client.Stock.GetAsync("KG-00001");

        Assert.Equal([TimeSpan.FromSeconds(7)], test.Waits);
    }

    [Fact]
    public async Task WithoutRetryAfterTheRateLimitResetIsWaited()
    {
        var test = new TestClient();
        test.Stub
            .Answer(HttpStatusCode.TooManyRequests, Problems.RateLimited(4), ("RateLimit", "\"per-key\";r=0;t=4"))
            .Answer(HttpStatusCode.OK, Stock);

        await test.Client.Stock.GetAsync("KG-00001");

        Assert.Equal([TimeSpan.FromSeconds(4)], test.Waits);
    }

    [Fact]
    public async Task CancellingDuringTheWaitStopsTheCall()
    {
        using var cancellation = new CancellationTokenSource();
        var test = new TestClient(o => o.Sleep = (_, _) =>
        {
            cancellation.Cancel();
            return Task.FromCanceled(cancellation.Token);
        });
        test.Stub.RateLimited(3).Answer(HttpStatusCode.OK, Stock);

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => test.Client.Stock.GetAsync("KG-00001", cancellation.Token));

        Assert.Single(test.Stub.Requests);
    }

    [Fact]
    public async Task TheRealTimerWaitsAndHonoursCancellation()
    {
        var stub = new StubHandler().RateLimited(30);
        using var client = new KeygateClient(new HttpClient(stub), new KeygateClientOptions { BaseUrl = new Uri("https://api.example.test"), ApiKey = "kg_test_x" });
        using var cancellation = new CancellationTokenSource(TimeSpan.FromMilliseconds(200));

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => client.Stock.GetAsync("KG-00001", cancellation.Token));

        Assert.Single(stub.Requests);
    }
}
