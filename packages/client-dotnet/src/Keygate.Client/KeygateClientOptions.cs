namespace Keygate.Client;

/// <summary>
/// How calls are retried after a 429, a 503 or a connection error (and GET, HEAD, OPTIONS, PUT and DELETE also after
/// a 502 or 504): those because they are idempotent, POST and PATCH because they carry an <c>Idempotency-Key</c>,
/// the same on every attempt.
/// </summary>
public sealed record KeygateRetryOptions
{
    /// <summary>Two retries and at most 60 seconds of waiting per call.</summary>
    public static KeygateRetryOptions Default { get; } = new();

    /// <summary>No retries: a 429, a 503 or a connection error is thrown at once.</summary>
    public static KeygateRetryOptions None { get; } = new() { MaxRetries = 0 };

    /// <summary>Retries per call after the first attempt (default 2).</summary>
    public int MaxRetries { get; init; } = 2;

    /// <summary>
    /// Total time one call may spend waiting across its retries (default 60 s). An answer or error whose wait would
    /// exceed what is left is thrown at once, without waiting.
    /// </summary>
    public TimeSpan MaxWait { get; init; } = TimeSpan.FromSeconds(60);
}

/// <summary>Options of <see cref="KeygateClient"/>.</summary>
public sealed class KeygateClientOptions
{
    /// <summary>The gateway's origin, e.g. <c>https://api.example.com</c> (paths start with <c>/v2/</c>). Defaults to the HttpClient's BaseAddress.</summary>
    public Uri? BaseUrl { get; set; }

    /// <summary>The API key, sent as <c>Authorization: Bearer …</c>. Set this or <see cref="ApiKeyProvider"/>.</summary>
    public string? ApiKey { get; set; }

    /// <summary>Read before every call instead of <see cref="ApiKey"/>, e.g. to pick up a rotated secret from a vault.</summary>
    public Func<CancellationToken, ValueTask<string>>? ApiKeyProvider { get; set; }

    /// <summary>Retries after a 429, a 503 or a connection error (default two retries within 60 s; <see cref="KeygateRetryOptions.None"/> turns them off).</summary>
    public KeygateRetryOptions Retry { get; set; } = KeygateRetryOptions.Default;

    /// <summary>Called once per operation that answers <c>Deprecation</c>/<c>Sunset</c>, and once per key-expiry notice.</summary>
    public Action<KeygateNotice>? OnNotice { get; set; }

    /// <summary>The clock for <c>Retry-After</c> dates, rate-limit times and the waits between retries.</summary>
    public TimeProvider TimeProvider { get; set; } = TimeProvider.System;

    /// <summary>How to wait before a retry; tests replace it to skip real waiting.</summary>
    internal Func<TimeSpan, CancellationToken, Task>? Sleep { get; set; }

    internal void Validate()
    {
        if (string.IsNullOrEmpty(ApiKey) && ApiKeyProvider is null)
            throw new ArgumentException("keygate client: ApiKey or ApiKeyProvider is required", nameof(ApiKey));
        ArgumentNullException.ThrowIfNull(Retry);
        if (Retry.MaxRetries < 0) throw new ArgumentOutOfRangeException(nameof(Retry), "MaxRetries must not be negative");
        if (Retry.MaxWait < TimeSpan.Zero) throw new ArgumentOutOfRangeException(nameof(Retry), "MaxWait must not be negative");
    }

    internal async ValueTask<string> ResolveApiKeyAsync(CancellationToken cancellationToken)
    {
        var key = ApiKeyProvider is null ? ApiKey : await ApiKeyProvider(cancellationToken).ConfigureAwait(false);
        if (string.IsNullOrEmpty(key)) throw new InvalidOperationException("keygate client: the API key is empty");
        return key;
    }
}
