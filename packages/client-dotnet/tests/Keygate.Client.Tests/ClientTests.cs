using System.Net;
using Microsoft.Extensions.DependencyInjection;

namespace Keygate.Client.Tests;

public class ClientTests
{
    private const string Key = """{"id":"key_1","name":"ci","prefix":"kg_test_abcdefgh","environment":"test","scopes":["order:r"],"status":"active","secret":"kg_test_new"}""";

    [Fact]
    public async Task RotateSendsTheActionPathWithTheOverlap()
    {
        var test = new TestClient();
        test.Stub.Answer(HttpStatusCode.OK, Key);

        var rotated = await test.Client.Keys.RotateAsync("key_1", overlapDays: 2);

        var request = Assert.Single(test.Stub.Requests);
        Assert.Equal(HttpMethod.Post, request.Method);
        Assert.Equal("https://api.example.test/v2/auth/keys/key_1:rotate", request.Uri.AbsoluteUri);
        Assert.Equal("""{"overlapDays":2}""", request.Body);
        Assert.Equal("kg_test_new", rotated.Secret);
    }

    [Fact]
    public async Task CloseOldSecretSendsItsActionPath()
    {
        var test = new TestClient();
        test.Stub.Answer(HttpStatusCode.OK, Key);

        await test.Client.Keys.CloseOldSecretAsync("key_1");

        Assert.Equal("/v2/auth/keys/key_1:close-old-secret", Assert.Single(test.Stub.Requests).Uri.AbsolutePath);
    }

    [Fact]
    public async Task TheCatalogueSendsTheChannelHeaderAndTheCustomer()
    {
        var test = new TestClient();
        test.Stub.Answer(HttpStatusCode.OK, """{"data":[{"sku":"KG-00001","name":"Tea","price":{"amount":1190,"currency":"EUR"}}],"nextCursor":null}""");

        var page = await test.Client.Catalog.ListProductsAsync("de", customer: "cus_1", limit: 10);

        var request = Assert.Single(test.Stub.Requests);
        Assert.Equal("de", request.Headers["X-Channel"]);
        Assert.Equal("?customer=cus_1&limit=10", request.Uri.Query);
        Assert.Equal("KG-00001", Assert.Single(page.Data!).Sku);
    }

    [Fact]
    public async Task TheKeyProviderIsReadForEveryCall()
    {
        var keys = new Queue<string>(["kg_test_first", "kg_test_second"]);
        var test = new TestClient(o =>
        {
            o.ApiKey = null;
            o.ApiKeyProvider = _ => ValueTask.FromResult(keys.Dequeue());
        });
        test.Stub.Answer(HttpStatusCode.OK, """{"data":[]}""").Answer(HttpStatusCode.OK, """{"data":[]}""");

        await test.Client.Catalog.ListChannelsAsync();
        await test.Client.Catalog.ListChannelsAsync();

        Assert.Equal(["Bearer kg_test_first", "Bearer kg_test_second"], test.Stub.Requests.Select(r => r.Headers["Authorization"]));
    }

    [Fact]
    public void AKeyIsRequired()
    {
        var error = Assert.Throws<ArgumentException>(() => new KeygateClient(new HttpClient(), new KeygateClientOptions { BaseUrl = new Uri("https://api.example.test") }));
        Assert.Contains("ApiKey", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ABaseUrlIsRequired()
    {
        Assert.Throws<ArgumentException>(() => new KeygateClient(new HttpClient(), new KeygateClientOptions { ApiKey = "kg_test_x" }));
    }

    [Fact]
    public async Task TheHttpClientBaseAddressServesAsBaseUrl()
    {
        var stub = new StubHandler().Answer(HttpStatusCode.OK, """{"data":[]}""");
        using var client = new KeygateClient(new HttpClient(stub) { BaseAddress = new Uri("https://gw.example.test/") }, new KeygateClientOptions { ApiKey = "kg_test_x" });

        await client.Catalog.ListChannelsAsync();

        Assert.Equal("https://gw.example.test/v2/channels", Assert.Single(stub.Requests).Uri.AbsoluteUri);
    }

    [Fact]
    public async Task AddKeygateClientBuildsTheClientFromTheHttpClientFactory()
    {
        var stub = new StubHandler().Answer(HttpStatusCode.OK, """{"data":[]}""");
        var services = new ServiceCollection();
        services
            .AddKeygateClient(o =>
            {
                o.BaseUrl = new Uri("https://api.example.test");
                o.ApiKey = "kg_test_from_di";
            })
            .ConfigurePrimaryHttpMessageHandler(() => stub);
        await using var provider = services.BuildServiceProvider();

        var client = provider.GetRequiredService<KeygateClient>();
        await client.Catalog.ListChannelsAsync();

        var request = Assert.Single(stub.Requests);
        Assert.Equal("Bearer kg_test_from_di", request.Headers["Authorization"]);
        Assert.Equal("https://api.example.test/v2/channels", request.Uri.AbsoluteUri);
    }
}
