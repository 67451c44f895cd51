using System.Net;

namespace Keygate.Client.Tests;

public class RateLimitTests
{
    private static HttpResponseMessage With(params (string Name, string Value)[] headers)
    {
        var response = new HttpResponseMessage(HttpStatusCode.OK);
        foreach (var (name, value) in headers) response.Headers.TryAddWithoutValidation(name, value);
        return response;
    }

    [Fact]
    public void ReadsPolicyAndState()
    {
        using var response = With(("RateLimit-Policy", "\"per-key\";q=100;w=60"), ("RateLimit", "\"per-key\";r=57;t=23"));

        var state = RateLimitState.Parse(response.Headers, TestClient.Now);

        Assert.Equal(new RateLimitState("per-key", 100, 60, 57, 23, TestClient.Now.AddSeconds(23), null, TestClient.Now), state);
    }

    [Fact]
    public void TheTightestOfSeveralPoliciesWins()
    {
        using var response = With(
            ("RateLimit-Policy", "\"per-key\";q=100;w=60, \"burst\";q=10;w=1"),
            ("RateLimit", "\"per-key\";r=57;t=23, \"burst\";r=2;t=1"));

        var state = RateLimitState.Parse(response.Headers, TestClient.Now);

        Assert.Equal("burst", state?.Policy);
        Assert.Equal(10, state?.Limit);
        Assert.Equal(2, state?.Remaining);
    }

    [Fact]
    public void NoStateWithoutAUsableHeader()
    {
        using var none = With();
        using var broken = With(("RateLimit", "\"per-key\";r=x"));

        Assert.Null(RateLimitState.Parse(none.Headers, TestClient.Now));
        Assert.Null(RateLimitState.Parse(broken.Headers, TestClient.Now));
    }

    [Fact]
    public async Task TheClientKeepsTheLatestState()
    {
        var test = new TestClient();
        test.Stub
            .Answer(HttpStatusCode.OK, """{"data":[]}""", ("RateLimit-Policy", "\"per-key\";q=100;w=60"), ("RateLimit", "\"per-key\";r=99;t=60"))
            .Answer(HttpStatusCode.OK, """{"data":[]}""", ("RateLimit-Policy", "\"per-key\";q=100;w=60"), ("RateLimit", "\"per-key\";r=98;t=59"));

        Assert.Null(test.Client.RateLimit);
        await test.Client.Catalog.ListChannelsAsync();
        await test.Client.Catalog.ListChannelsAsync();

        Assert.Equal(98, test.Client.RateLimit?.Remaining);
        Assert.Equal(59, test.Client.RateLimit?.ResetSeconds);
    }
}
