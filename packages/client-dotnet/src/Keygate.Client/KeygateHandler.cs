using System.Net;
using System.Net.Http.Headers;

namespace Keygate.Client;

/// <summary>
/// The client's HTTP pipeline, in order: set the bearer key; give a POST or PATCH an <c>Idempotency-Key</c> (the
/// caller's, else a UUIDv4 for this call); send; record the rate-limit state; on a 429, a 503 or a connection
/// error, wait (<c>Retry-After</c>, else the <c>RateLimit</c> reset, else a backoff) and send the same request
/// again, key included, within the retry budget; report notices; turn an error answer into
/// <see cref="KeygateProblemException"/>.
/// </summary>
internal sealed class KeygateHandler : DelegatingHandler
{
    /// <summary>The idempotent methods of RFC 9110 §9.2.2: sending one twice has the effect of sending it once.</summary>
    internal static readonly HashSet<HttpMethod> RetriedMethods = [HttpMethod.Get, HttpMethod.Head, HttpMethod.Options, HttpMethod.Put, HttpMethod.Delete];

    /// <summary>The methods that get an <c>Idempotency-Key</c>, which the API uses to answer a repeat with the first answer.</summary>
    internal static readonly HashSet<HttpMethod> KeyedMethods = [HttpMethod.Post, HttpMethod.Patch];

    /// <summary>The first wait after a 503 without <c>Retry-After</c> or a connection error; doubled per retry.</summary>
    internal static readonly TimeSpan FirstBackoff = TimeSpan.FromMilliseconds(500);

    private readonly KeygateClientOptions _options;
    private readonly NoticeTracker _notices;

    public KeygateHandler(KeygateClientOptions options, HttpMessageHandler inner)
        : base(inner)
    {
        _options = options;
        _notices = new NoticeTracker(options.OnNotice);
    }

    /// <summary>The rate-limit state of the latest response that announced one.</summary>
    public RateLimitState? LatestRateLimit { get; private set; }

    protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
    {
        request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", await _options.ResolveApiKeyAsync(cancellationToken).ConfigureAwait(false));
        if (KeyedMethods.Contains(request.Method) && !request.Headers.Contains(KeygateRequestOptions.IdempotencyKeyHeader))
            request.Headers.Add(KeygateRequestOptions.IdempotencyKeyHeader, Guid.NewGuid().ToString());
        var retry = _options.Retry;
        // A POST or PATCH is safe to repeat only under its Idempotency-Key: the API answers a repeat with the first answer.
        var mayRetry = retry.MaxRetries > 0 &&
            (RetriedMethods.Contains(request.Method) || request.Headers.Contains(KeygateRequestOptions.IdempotencyKeyHeader));
        // A request message is sent once: keep the body's bytes so a retry can send a fresh copy.
        var body = mayRetry && request.Content is not null ? await request.Content.ReadAsByteArrayAsync(cancellationToken).ConfigureAwait(false) : null;
        var waited = TimeSpan.Zero;
        var attemptRequest = request;
        for (var attempt = 0; ; attempt++)
        {
            HttpResponseMessage response;
            try
            {
                response = await base.SendAsync(attemptRequest, cancellationToken).ConfigureAwait(false);
            }
            catch (Exception error) when (mayRetry && attempt < retry.MaxRetries && IsConnectionError(error, cancellationToken) &&
                                          waited + Backoff(attempt) <= retry.MaxWait)
            {
                await SleepAsync(Backoff(attempt), cancellationToken).ConfigureAwait(false);
                waited += Backoff(attempt);
                attemptRequest = Copy(request, body is null ? null : new ByteArrayContent(body));
                continue;
            }
            var now = _options.TimeProvider.GetUtcNow();
            var rateLimit = RateLimitState.Parse(response.Headers, now);
            if (rateLimit is not null) LatestRateLimit = rateLimit;
            if (mayRetry && attempt < retry.MaxRetries && RetryDelay(response, rateLimit, now, attempt) is { } delay && waited + delay <= retry.MaxWait)
            {
                response.Dispose();
                await SleepAsync(delay, cancellationToken).ConfigureAwait(false);
                waited += delay;
                attemptRequest = Copy(request, body is null ? null : new ByteArrayContent(body));
                continue;
            }
            _notices.Observe(request, response);
            if (response.IsSuccessStatusCode) return response;
            using (response)
            {
                throw await KeygateProblemException.FromResponseAsync(response, rateLimit, now, cancellationToken).ConfigureAwait(false);
            }
        }
    }

    /// <summary>
    /// How long to wait before retrying <paramref name="response"/>, or null when it is not retried: a 429 waits
    /// <c>Retry-After</c>, else the <c>RateLimit</c> reset; a 503 waits <c>Retry-After</c>, else the backoff.
    /// </summary>
    internal static TimeSpan? RetryDelay(HttpResponseMessage response, RateLimitState? rateLimit, DateTimeOffset now, int attempt) =>
        response.StatusCode switch
        {
            HttpStatusCode.TooManyRequests => RetryDelay(response.Headers, rateLimit, now),
            HttpStatusCode.ServiceUnavailable => RateLimitState.RetryAfter(response.Headers, now) ?? Backoff(attempt),
            _ => null,
        };

    /// <summary>The wait before retry <paramref name="attempt"/> + 1 when the answer named none: 0.5 s, 1 s, 2 s, …</summary>
    internal static TimeSpan Backoff(int attempt) => FirstBackoff * Math.Pow(2, Math.Min(attempt, 10));

    /// <summary>
    /// A failure to get an answer at all (refused, reset, the caller's HttpClient timeout), as opposed to the caller
    /// cancelling: the request may or may not have had its effect, which the Idempotency-Key makes safe to retry.
    /// </summary>
    internal static bool IsConnectionError(Exception error, CancellationToken cancellationToken) =>
        !cancellationToken.IsCancellationRequested &&
        error is HttpRequestException or IOException or TaskCanceledException { InnerException: TimeoutException };

    /// <summary>How long to wait before retrying a 429: <c>Retry-After</c>, else the <c>RateLimit</c> reset <c>t</c>.</summary>
    internal static TimeSpan? RetryDelay(HttpResponseHeaders headers, RateLimitState? rateLimit, DateTimeOffset now) =>
        RateLimitState.RetryAfter(headers, now) ?? (rateLimit is null ? null : TimeSpan.FromSeconds(rateLimit.ResetSeconds));

    private Task SleepAsync(TimeSpan delay, CancellationToken cancellationToken) =>
        _options.Sleep is { } sleep ? sleep(delay, cancellationToken) : Task.Delay(delay, _options.TimeProvider, cancellationToken);

    /// <summary>A fresh message with the same method, URI, headers and options, carrying <paramref name="content"/>.</summary>
    internal static HttpRequestMessage Copy(HttpRequestMessage original, HttpContent? content)
    {
        var copy = new HttpRequestMessage(original.Method, original.RequestUri) { Version = original.Version, VersionPolicy = original.VersionPolicy };
        foreach (var header in original.Headers) copy.Headers.TryAddWithoutValidation(header.Key, header.Value);
        foreach (var option in original.Options) ((IDictionary<string, object?>)copy.Options)[option.Key] = option.Value;
        if (content is not null && original.Content is not null && !ReferenceEquals(content, original.Content))
            foreach (var header in original.Content.Headers) content.Headers.TryAddWithoutValidation(header.Key, header.Value);
        copy.Content = content;
        return copy;
    }
}

/// <summary>The innermost handler: hands each request to the caller's HttpClient (its handlers, timeout and proxy).</summary>
internal sealed class HttpClientForwarder(HttpClient client) : HttpMessageHandler
{
    // HttpClient refuses a message another HttpClient already sent, so the caller's client gets a copy (same body).
    protected override Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken) =>
        client.SendAsync(KeygateHandler.Copy(request, request.Content), HttpCompletionOption.ResponseHeadersRead, cancellationToken);
}
