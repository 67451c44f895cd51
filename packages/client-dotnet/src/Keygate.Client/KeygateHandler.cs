using System.Net;
using System.Net.Http.Headers;

namespace Keygate.Client;

/// <summary>
/// The client's HTTP pipeline, in order: set the bearer key; give a POST or PATCH an <c>Idempotency-Key</c> (the
/// caller's, else a UUIDv4 for this call); send; record the rate-limit state; retry as the rules below allow;
/// report notices; turn an error answer into <see cref="KeygateProblemException"/>. The retry rules, the same in
/// the TypeScript and PHP clients:
/// 1. GET, HEAD, OPTIONS, PUT and DELETE (idempotent by RFC 9110 §9.2.2) after 429, 502, 503, 504 and a
///    connection error (no answer).
/// 2. POST and PATCH with their <c>Idempotency-Key</c>, the same on every attempt, after 429, 503 and a connection
///    error: the API answers a repeat with the first answer. Not after 502/504, when the first request may still be
///    running and its repeat would only meet <c>IDEMPOTENCY_KEY_IN_USE</c>.
/// 3. The wait is <c>Retry-After</c>, else for a 429 the <c>RateLimit</c> reset (a 429 with neither is not
///    retried), else a backoff of 1 s doubled per retry; all within <see cref="KeygateRetryOptions"/>. The caller
///    cancelling is never retried.
/// 4. A 429 <c>QUOTA_EXCEEDED</c> or <c>CREDITS_EXHAUSTED</c> (a budget, not a rate) only when its <c>Retry-After</c>
///    is at most <see cref="BudgetRetryAfterLimit"/>: a quota that resets tomorrow, or credits nothing refills (no
///    <c>Retry-After</c>), are thrown at once as <see cref="KeygateRateLimitException"/>.
/// 5. A POST or PATCH answered 409 <c>IDEMPOTENCY_KEY_IN_USE</c> (its first attempt is still running) is sent again
///    with the same key after <c>Retry-After</c> (else the backoff), as Stripe's clients do.
/// </summary>
internal sealed class KeygateHandler : DelegatingHandler
{
    /// <summary>The idempotent methods of RFC 9110 §9.2.2: sending one twice has the effect of sending it once.</summary>
    internal static readonly HashSet<HttpMethod> RetriedMethods = [HttpMethod.Get, HttpMethod.Head, HttpMethod.Options, HttpMethod.Put, HttpMethod.Delete];

    /// <summary>The methods that get an <c>Idempotency-Key</c>, which makes them safe to send again.</summary>
    internal static readonly HashSet<HttpMethod> KeyedMethods = [HttpMethod.Post, HttpMethod.Patch];

    /// <summary>Statuses retried for <see cref="RetriedMethods"/>: the rate limit, and a gateway or upstream that may recover.</summary>
    internal static readonly HashSet<HttpStatusCode> RetriedStatuses =
        [HttpStatusCode.TooManyRequests, HttpStatusCode.BadGateway, HttpStatusCode.ServiceUnavailable, HttpStatusCode.GatewayTimeout];

    /// <summary>Statuses retried for a POST or PATCH under its <c>Idempotency-Key</c>.</summary>
    internal static readonly HashSet<HttpStatusCode> KeyedRetriedStatuses = [HttpStatusCode.TooManyRequests, HttpStatusCode.ServiceUnavailable];

    /// <summary>The 429 codes of a spent budget (quota, credits), retried only after a short <c>Retry-After</c> (rule 4).</summary>
    internal static readonly HashSet<string> BudgetCodes = [KeygateProblemCodes.QuotaExceeded, KeygateProblemCodes.CreditsExhausted];

    /// <summary>The longest <c>Retry-After</c> a budget 429 is retried after; a longer wait is the caller's to plan.</summary>
    public static readonly TimeSpan BudgetRetryAfterLimit = TimeSpan.FromSeconds(10);

    /// <summary>The first wait after an answer without <c>Retry-After</c> or a connection error; doubled per retry.</summary>
    internal static readonly TimeSpan FirstBackoff = TimeSpan.FromSeconds(1);

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
        var statuses = retry.MaxRetries > 0 ? RetriedStatusesOf(request) : null;
        // A request message is sent once: keep the body's bytes so a retry can send a fresh copy.
        var body = statuses is not null && request.Content is not null ? await request.Content.ReadAsByteArrayAsync(cancellationToken).ConfigureAwait(false) : null;
        var waited = TimeSpan.Zero;
        var attemptRequest = request;
        for (var attempt = 0; ; attempt++)
        {
            var mayRetry = statuses is not null && attempt < retry.MaxRetries;
            HttpResponseMessage response;
            try
            {
                response = await base.SendAsync(attemptRequest, cancellationToken).ConfigureAwait(false);
            }
            catch (Exception error) when (mayRetry && IsConnectionError(error, cancellationToken) && waited + Backoff(attempt) <= retry.MaxWait)
            {
                waited += await WaitAsync(Backoff(attempt), cancellationToken).ConfigureAwait(false);
                attemptRequest = Copy(request, body is null ? null : new ByteArrayContent(body));
                continue;
            }
            var now = _options.TimeProvider.GetUtcNow();
            var rateLimit = RateLimitState.Parse(response.Headers, now);
            if (rateLimit is not null) LatestRateLimit = rateLimit;
            if (mayRetry && await RetryDelayAsync(statuses!, response, rateLimit, now, attempt, cancellationToken).ConfigureAwait(false) is { } delay && waited + delay <= retry.MaxWait)
            {
                response.Dispose();
                waited += await WaitAsync(delay, cancellationToken).ConfigureAwait(false);
                attemptRequest = Copy(request, body is null ? null : new ByteArrayContent(body));
                continue;
            }
            return await FinishAsync(request, response, rateLimit, now, cancellationToken).ConfigureAwait(false);
        }
    }

    /// <summary>Reports notices, then returns a success or throws the error answer as a problem.</summary>
    private async Task<HttpResponseMessage> FinishAsync(
        HttpRequestMessage request, HttpResponseMessage response, RateLimitState? rateLimit, DateTimeOffset now, CancellationToken cancellationToken)
    {
        _notices.Observe(request, response);
        if (response.IsSuccessStatusCode) return response;
        using (response)
        {
            throw await KeygateProblemException.FromResponseAsync(response, rateLimit, now, cancellationToken).ConfigureAwait(false);
        }
    }

    /// <summary>The statuses after which <paramref name="request"/> may be sent again (rules 1 and 2), or null for none.</summary>
    internal static HashSet<HttpStatusCode>? RetriedStatusesOf(HttpRequestMessage request) =>
        RetriedMethods.Contains(request.Method) ? RetriedStatuses
        : KeyedMethods.Contains(request.Method) && request.Headers.Contains(KeygateRequestOptions.IdempotencyKeyHeader) ? KeyedRetriedStatuses
        : null;

    /// <summary>How long to wait before retrying <paramref name="response"/> (rules 3 to 5), or null when it is not retried.</summary>
    internal static async Task<TimeSpan?> RetryDelayAsync(
        HashSet<HttpStatusCode> statuses, HttpResponseMessage response, RateLimitState? rateLimit, DateTimeOffset now, int attempt, CancellationToken cancellationToken)
    {
        if (response.StatusCode == HttpStatusCode.Conflict && ReferenceEquals(statuses, KeyedRetriedStatuses))
            return await CodeOfAsync(response, cancellationToken).ConfigureAwait(false) == KeygateProblemCodes.IdempotencyKeyInUse
                ? RateLimitState.RetryAfter(response.Headers, now) ?? Backoff(attempt)
                : null;
        if (!statuses.Contains(response.StatusCode)) return null;
        if (response.StatusCode != HttpStatusCode.TooManyRequests) return RateLimitState.RetryAfter(response.Headers, now) ?? Backoff(attempt);
        if (BudgetCodes.Contains(await CodeOfAsync(response, cancellationToken).ConfigureAwait(false) ?? ""))
            return RateLimitState.RetryAfter(response.Headers, now) is { } wait && wait <= BudgetRetryAfterLimit ? wait : null;
        return RetryDelay(response.Headers, rateLimit, now);
    }

    /// <summary>The problem <c>code</c> of an error answer, read from a buffered body that stays readable for the exception.</summary>
    private static async Task<string?> CodeOfAsync(HttpResponseMessage response, CancellationToken cancellationToken)
    {
        await response.Content.LoadIntoBufferAsync().ConfigureAwait(false);
        try
        {
            using var problem = System.Text.Json.JsonDocument.Parse(await response.Content.ReadAsStringAsync(cancellationToken).ConfigureAwait(false));
            return problem.RootElement.ValueKind == System.Text.Json.JsonValueKind.Object && problem.RootElement.TryGetProperty("code", out var code) &&
                code.ValueKind == System.Text.Json.JsonValueKind.String ? code.GetString() : null;
        }
        catch (System.Text.Json.JsonException)
        {
            return null;
        }
    }

    /// <summary>The wait before retry <paramref name="attempt"/> + 1 when the answer named none: 1 s, 2 s, 4 s, …</summary>
    internal static TimeSpan Backoff(int attempt) => FirstBackoff * Math.Pow(2, Math.Min(attempt, 10));

    /// <summary>
    /// A failure to get an answer at all (refused, reset, the caller's HttpClient timeout), as opposed to the caller
    /// cancelling: the request may or may not have had its effect.
    /// </summary>
    internal static bool IsConnectionError(Exception error, CancellationToken cancellationToken) =>
        !cancellationToken.IsCancellationRequested &&
        error is HttpRequestException or IOException or TaskCanceledException { InnerException: TimeoutException };

    private async Task<TimeSpan> WaitAsync(TimeSpan delay, CancellationToken cancellationToken)
    {
        await SleepAsync(delay, cancellationToken).ConfigureAwait(false);
        return delay;
    }

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
