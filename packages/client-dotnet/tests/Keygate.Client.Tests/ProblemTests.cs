using System.Net;

namespace Keygate.Client.Tests;

public class ProblemTests
{
    [Fact]
    public async Task AForbiddenCallCarriesTheRequiredScope()
    {
        var test = new TestClient();
        test.Stub.Answer(HttpStatusCode.Forbidden, Problems.InsufficientScope, ("X-Request-Id", "req_123"));

        var problem = await Assert.ThrowsAsync<KeygateProblemException>(() => test.Client.Carts.CreateAsync("de"));

        Assert.Equal("https://keygate.dev/problems/insufficient-scope", problem.Type);
        Assert.Equal("Insufficient scope", problem.Title);
        Assert.Equal(403, problem.Status);
        Assert.Equal("This call needs the scope order:rw.", problem.Detail);
        Assert.Equal("INSUFFICIENT_SCOPE", problem.Code);
        Assert.Equal("order:rw", problem.RequiredScope);
        Assert.Equal("req_123", problem.RequestId);
        Assert.Null(problem.RetryAfter);
        Assert.Equal("403 INSUFFICIENT_SCOPE: This call needs the scope order:rw.", problem.Message);
    }

    [Fact]
    public async Task TheInstanceIsTheRequestIdWhenNoHeaderNamesOne()
    {
        var test = new TestClient();
        test.Stub.Answer(HttpStatusCode.Forbidden, Problems.InsufficientScope);

        var problem = await Assert.ThrowsAsync<KeygateProblemException>(() => test.Client.Orders.GetAsync("ord_1"));

        Assert.Equal("req_body", problem.RequestId);
    }

    [Fact]
    public async Task ARateLimitedCallExposesTheRateLimitState()
    {
        var test = new TestClient(o => o.Retry = KeygateRetryOptions.None);
        test.Stub.RateLimited(12);

        var problem = await Assert.ThrowsAsync<KeygateRateLimitException>(() => test.Client.Catalog.ListChannelsAsync());

        Assert.Equal(TimeSpan.FromSeconds(12), problem.RetryAfter);
        Assert.Equal("req_limited", problem.RequestId);
        var state = Assert.IsType<RateLimitState>(problem.RateLimit);
        Assert.Equal("per-key", state.Policy);
        Assert.Equal(5, state.Limit);
        Assert.Equal(60, state.WindowSeconds);
        Assert.Equal(0, state.Remaining);
        Assert.Equal(12, state.ResetSeconds);
        Assert.Equal(12, state.RetryAfterSeconds);
        Assert.Equal(TestClient.Now.AddSeconds(12), state.ResetsAt);
        Assert.Same(state, test.Client.RateLimit);
    }

    [Fact]
    public async Task AValidationProblemListsItsFieldErrors()
    {
        var test = new TestClient();
        test.Stub.Answer(
            HttpStatusCode.UnprocessableEntity,
            """{"type":"https://keygate.dev/problems/validation-failed","title":"Invalid request","status":422,"detail":"1 field is invalid.","code":"VALIDATION_FAILED","errors":[{"detail":"must be at least 0","pointer":"/onHand"}]}""");

        var problem = await Assert.ThrowsAsync<KeygateProblemException>(() => test.Client.Stock.SetAsync("KG-00001", -1));

        Assert.Equal("VALIDATION_FAILED", problem.Code);
        var error = Assert.Single(problem.Errors);
        Assert.Equal(new KeygateFieldError("must be at least 0", "/onHand"), error);
    }

    [Fact]
    public async Task AnAnswerWithoutAProblemBodyBecomesAnUnexpectedResponse()
    {
        // A 502 is retried by default; without retries it reaches the caller at once.
        var test = new TestClient(o => o.Retry = KeygateRetryOptions.None);
        test.Stub.Answer(HttpStatusCode.BadGateway);

        var problem = await Assert.ThrowsAsync<KeygateProblemException>(() => test.Client.Catalog.ListChannelsAsync());

        Assert.Equal(KeygateProblemException.UnexpectedResponse, problem.Code);
        Assert.Equal(502, problem.Status);
        Assert.Equal("about:blank", problem.Type);
        Assert.Equal("HTTP 502 without a problem body", problem.Detail);
    }

    [Fact]
    public async Task AnHtmlErrorPageIsQuotedInTheDetail()
    {
        // A 503 is retried by default; without retries the page reaches the caller at once.
        var test = new TestClient(o => o.Retry = KeygateRetryOptions.None);
        test.Stub.Answer(HttpStatusCode.ServiceUnavailable, "<html>maintenance</html>");

        var problem = await Assert.ThrowsAsync<KeygateProblemException>(() => test.Client.Catalog.ListChannelsAsync());

        Assert.Equal(KeygateProblemException.UnexpectedResponse, problem.Code);
        Assert.Equal("<html>maintenance</html>", problem.Detail);
    }

    [Fact]
    public async Task AnUnauthorizedCallIsAProblemToo()
    {
        var test = new TestClient();
        test.Stub.Answer(
            HttpStatusCode.Unauthorized,
            """{"type":"https://keygate.dev/problems/unknown-key","title":"Unknown key","status":401,"detail":"No key matches.","code":"UNKNOWN_KEY"}""");

        var problem = await Assert.ThrowsAsync<KeygateProblemException>(() => test.Client.Keys.ListAsync());

        Assert.Equal(401, problem.Status);
        Assert.Equal("UNKNOWN_KEY", problem.Code);
    }
}
