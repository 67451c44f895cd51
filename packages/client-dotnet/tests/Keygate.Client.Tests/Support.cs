using System.Net;
using System.Text;

namespace Keygate.Client.Tests;

/// <summary>A request as the stub handler saw it: method, URI, headers and body text.</summary>
internal sealed record SeenRequest(HttpMethod Method, Uri Uri, IReadOnlyDictionary<string, string> Headers, string? Body);

/// <summary>A mocked transport: answers queued responses in order and records every request it got.</summary>
internal sealed class StubHandler : HttpMessageHandler
{
    private readonly Queue<Func<HttpResponseMessage>> _answers = new();

    public List<SeenRequest> Requests { get; } = [];

    public StubHandler Answer(HttpStatusCode status, string? json = null, params (string Name, string Value)[] headers)
    {
        _answers.Enqueue(() =>
        {
            var response = new HttpResponseMessage(status);
            if (json is not null) response.Content = new StringContent(json, Encoding.UTF8, status >= HttpStatusCode.BadRequest ? "application/problem+json" : "application/json");
            foreach (var (name, value) in headers)
                if (!response.Headers.TryAddWithoutValidation(name, value)) response.Content.Headers.TryAddWithoutValidation(name, value);
            return response;
        });
        return this;
    }

    /// <summary>Changes the last queued answer, e.g. to give it a body of another media type.</summary>
    public StubHandler Respond(Action<HttpResponseMessage> change)
    {
        var queued = _answers.ToArray();
        _answers.Clear();
        for (var i = 0; i < queued.Length; i++)
        {
            var make = queued[i];
            _answers.Enqueue(i < queued.Length - 1 ? make : () =>
            {
                var response = make();
                change(response);
                return response;
            });
        }
        return this;
    }

    /// <summary>The next attempt gets no answer: the connection fails as a reset or refused one does.</summary>
    public StubHandler ConnectionLost()
    {
        _answers.Enqueue(() => throw new HttpRequestException("Connection reset by peer", new IOException("reset")));
        return this;
    }

    public StubHandler RateLimited(int retryAfterSeconds, string? retryAfterHeader = null) =>
        Answer(
            HttpStatusCode.TooManyRequests,
            Problems.RateLimited(retryAfterSeconds),
            ("Retry-After", retryAfterHeader ?? retryAfterSeconds.ToString(System.Globalization.CultureInfo.InvariantCulture)),
            ("RateLimit-Policy", "\"per-key\";q=5;w=60"),
            ("RateLimit", $"\"per-key\";r=0;t={retryAfterSeconds}"),
            ("X-Request-Id", "req_limited"));

    protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
    {
        var headers = request.Headers.Concat(request.Content?.Headers ?? Enumerable.Empty<KeyValuePair<string, IEnumerable<string>>>())
            .ToDictionary(h => h.Key, h => string.Join(", ", h.Value), StringComparer.OrdinalIgnoreCase);
        var body = request.Content is null ? null : await request.Content.ReadAsStringAsync(cancellationToken);
        Requests.Add(new SeenRequest(request.Method, request.RequestUri!, headers, body));
        if (_answers.Count == 0) throw new InvalidOperationException($"unexpected request {request.Method} {request.RequestUri}");
        var response = _answers.Dequeue()();
        response.RequestMessage = request;
        return response;
    }
}

internal static class Problems
{
    public static string RateLimited(int seconds) =>
        $$"""{"type":"https://keygate.dev/problems/rate-limited","title":"Too many requests","status":429,"detail":"Rate limit of 5 calls per 60 s exceeded.","code":"RATE_LIMITED","retryAfter":{{seconds}}}""";

    public const string InsufficientScope =
        """{"type":"https://keygate.dev/problems/insufficient-scope","title":"Insufficient scope","status":403,"detail":"This call needs the scope order:rw.","code":"INSUFFICIENT_SCOPE","requiredScope":"order:rw","instance":"req_body"}""";
}

/// <summary>A clock standing still, for Retry-After dates and webhook timestamps.</summary>
internal sealed class FixedTime(DateTimeOffset now) : TimeProvider
{
    public override DateTimeOffset GetUtcNow() => now;
}

/// <summary>A client over a stub transport whose waits are recorded instead of slept.</summary>
internal sealed class TestClient
{
    public static readonly DateTimeOffset Now = new(2026, 11, 26, 12, 0, 0, TimeSpan.Zero);

    public TestClient(Action<KeygateClientOptions>? configure = null)
    {
        var options = new KeygateClientOptions
        {
            BaseUrl = new Uri("https://api.example.test"),
            ApiKey = "kg_test_abcdefgh_secret",
            TimeProvider = new FixedTime(Now),
            Sleep = (delay, cancellationToken) =>
            {
                cancellationToken.ThrowIfCancellationRequested();
                Waits.Add(delay);
                return Task.CompletedTask;
            },
        };
        configure?.Invoke(options);
        Client = new KeygateClient(new HttpClient(Stub), options);
    }

    public StubHandler Stub { get; } = new();

    public List<TimeSpan> Waits { get; } = [];

    public KeygateClient Client { get; }
}
