using System.Net;

namespace Keygate.Client.Tests;

public class PagingTests
{
    private static string ProductPage(string cursor, params string[] skus) =>
        $$"""{"data":[{{string.Join(",", skus.Select(s => $$"""{"sku":"{{s}}","name":"{{s}}"}"""))}}],"nextCursor":{{(cursor == "" ? "null" : $"\"{cursor}\"")}}}""";

    [Fact]
    public async Task WalksEveryPageInOrderAndStopsAfterTheLast()
    {
        var test = new TestClient();
        test.Stub.Answer(HttpStatusCode.OK, ProductPage("c1", "KG-1", "KG-2")).Answer(HttpStatusCode.OK, ProductPage("", "KG-3"));

        var skus = new List<string>();
        await foreach (var product in test.Client.Catalog.ListProductsAutoPagingAsync("WEB_DE", customer: "cus_1", pageSize: 2)) skus.Add(product.Sku!);

        Assert.Equal(["KG-1", "KG-2", "KG-3"], skus);
        Assert.Equal(2, test.Stub.Requests.Count);
        Assert.Equal("?customer=cus_1&limit=2", test.Stub.Requests[0].Uri.Query);
        Assert.Equal("?cursor=c1&customer=cus_1&limit=2", test.Stub.Requests[1].Uri.Query);
        Assert.All(test.Stub.Requests, r => Assert.Equal("WEB_DE", r.Headers["X-Channel"]));
    }

    [Fact]
    public async Task BreakingOutFetchesNoFurtherPage()
    {
        var test = new TestClient();
        test.Stub.Answer(HttpStatusCode.OK, ProductPage("c1", "KG-1", "KG-2"));

        await foreach (var product in test.Client.Catalog.ListProductsAutoPagingAsync("WEB_DE"))
            if (product.Sku == "KG-1") break;

        Assert.Single(test.Stub.Requests);
    }

    [Fact]
    public async Task CancellingStopsTheWalk()
    {
        using var cancellation = new CancellationTokenSource();
        var test = new TestClient();
        test.Stub.Answer(HttpStatusCode.OK, ProductPage("c1", "KG-1", "KG-2"));
        var seen = new List<string>();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(async () =>
        {
            await foreach (var product in test.Client.Catalog.ListProductsAutoPagingAsync("WEB_DE").WithCancellation(cancellation.Token))
            {
                seen.Add(product.Sku!);
                cancellation.Cancel();
            }
        });

        Assert.Equal(["KG-1"], seen);
        Assert.Single(test.Stub.Requests);
    }

    [Fact]
    public async Task APageIsRetriedAfterA429LikeAnyCall()
    {
        var test = new TestClient();
        test.Stub.Answer(HttpStatusCode.OK, ProductPage("c1", "KG-1")).RateLimited(2).Answer(HttpStatusCode.OK, ProductPage("", "KG-2"));

        var skus = new List<string>();
        await foreach (var product in test.Client.Catalog.ListProductsAutoPagingAsync("WEB_DE")) skus.Add(product.Sku!);

        Assert.Equal(["KG-1", "KG-2"], skus);
        Assert.Equal([TimeSpan.FromSeconds(2)], test.Waits);
        Assert.Equal("?cursor=c1", test.Stub.Requests[2].Uri.Query);
    }

    [Fact]
    public async Task ARepeatedCursorIsAnErrorNotALoop()
    {
        var test = new TestClient();
        test.Stub.Answer(HttpStatusCode.OK, ProductPage("c1", "KG-1")).Answer(HttpStatusCode.OK, ProductPage("c1", "KG-2"));

        var error = await Assert.ThrowsAsync<InvalidOperationException>(async () =>
        {
            await foreach (var _ in test.Client.Catalog.ListProductsAutoPagingAsync("WEB_DE")) { }
        });

        Assert.Contains("c1", error.Message);
    }

    [Fact]
    public async Task KeyActivityLogsAndDeliveriesPageOnTheirCursors()
    {
        var test = new TestClient();
        test.Stub
            .Answer(HttpStatusCode.OK, """{"items":[{"id":"act_1"}],"nextCursor":"a1"}""")
            .Answer(HttpStatusCode.OK, """{"items":[{"id":"act_2"}],"nextCursor":null}""")
            .Answer(HttpStatusCode.OK, """{"items":[{"id":"log_1"}],"nextCursor":null}""")
            .Answer(HttpStatusCode.OK, """{"data":[{"id":"del_1"}],"nextCursor":"d1"}""")
            .Answer(HttpStatusCode.OK, """{"data":[{"id":"del_2"}],"nextCursor":null}""");

        var activity = await Collect(test.Client.Keys.ListActivityAutoPagingAsync("key_1", pageSize: 1));
        var logs = await Collect(test.Client.Keys.ListLogsAutoPagingAsync("key_1"));
        var deliveries = await Collect(test.Client.Webhooks.ListDeliveriesAutoPagingAsync("we_1"));

        Assert.Equal(["act_1", "act_2"], activity.Select(a => a.Id));
        Assert.Equal(["log_1"], logs.Select(l => l.Id));
        Assert.Equal(["del_1", "del_2"], deliveries.Select(d => d.Id));
        Assert.Equal("/v2/auth/keys/key_1/activity?cursor=a1&limit=1", test.Stub.Requests[1].Uri.PathAndQuery);
        Assert.Equal("/v2/webhooks/endpoints/we_1/deliveries?cursor=d1", test.Stub.Requests[4].Uri.PathAndQuery);
    }

    [Fact]
    public async Task CustomerPricesComeOnePerProductAndChannel()
    {
        var test = new TestClient();
        test.Stub
            .Answer(HttpStatusCode.OK, """{"customer":{"id":"cus_1"},"agreements":[],"effectivePrices":[{"channel":"WEB_DE","currency":"EUR","pricesIncludeVat":true,"prices":[{"sku":"KG-1","gross":100}]},{"channel":"WEB_CH","currency":"CHF","pricesIncludeVat":false,"prices":[{"sku":"KG-1","gross":110}]}],"nextCursor":"p1"}""")
            .Answer(HttpStatusCode.OK, """{"customer":{"id":"cus_1"},"agreements":[],"effectivePrices":[{"channel":"WEB_DE","currency":"EUR","pricesIncludeVat":true,"prices":[{"sku":"KG-2","gross":200}]}],"nextCursor":null}""");

        var prices = await Collect(test.Client.Customers.ListPricesAutoPagingAsync("cus_1", pageSize: 1));

        Assert.Equal(["WEB_DE KG-1 100", "WEB_CH KG-1 110", "WEB_DE KG-2 200"], prices.Select(p => $"{p.Channel} {p.Price.Sku} {p.Price.Gross}"));
        Assert.Equal("/v2/customers/cus_1/pricing?cursor=p1&limit=1", test.Stub.Requests[1].Uri.PathAndQuery);
    }

    [Fact]
    public async Task CustomerPricingPagesComeWhole()
    {
        var test = new TestClient();
        test.Stub
            .Answer(HttpStatusCode.OK, """{"customer":{"id":"cus_1"},"agreements":[{"sku":"KG-1"}],"effectivePrices":[],"nextCursor":"p1"}""")
            .Answer(HttpStatusCode.OK, """{"customer":{"id":"cus_1"},"agreements":[{"sku":"KG-2"}],"effectivePrices":[],"nextCursor":null}""");

        var pages = await Collect(test.Client.Customers.GetPricingAutoPagingAsync("cus_1"));

        Assert.Equal(["KG-1", "KG-2"], pages.Select(p => Assert.Single(p.Agreements!).Sku));
    }

    private static async Task<List<T>> Collect<T>(IAsyncEnumerable<T> items)
    {
        var list = new List<T>();
        await foreach (var item in items) list.Add(item);
        return list;
    }
}
