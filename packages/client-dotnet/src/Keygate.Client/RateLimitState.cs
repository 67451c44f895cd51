using System.Globalization;
using System.Net.Http.Headers;

namespace Keygate.Client;

/// <summary>
/// A key's rate-limit state as one response announced it (IETF draft-ietf-httpapi-ratelimit-headers:
/// <c>RateLimit-Policy: "per-key";q=100;w=60</c> and <c>RateLimit: "per-key";r=57;t=23</c>).
/// </summary>
/// <param name="Policy">Name of the policy the numbers belong to, e.g. <c>per-key</c>.</param>
/// <param name="Limit">Calls allowed per window (<c>q</c>), when the response named the policy.</param>
/// <param name="WindowSeconds">Window length in seconds (<c>w</c>), when the response named the policy.</param>
/// <param name="Remaining">Calls left in the current window (<c>r</c>).</param>
/// <param name="ResetSeconds">Seconds until the quota resets (<c>t</c>).</param>
/// <param name="ResetsAt">When the quota resets: <paramref name="ObservedAt"/> plus <paramref name="ResetSeconds"/>.</param>
/// <param name="RetryAfterSeconds"><c>Retry-After</c> in seconds on a refused (429) call, else null.</param>
/// <param name="ObservedAt">When the response was received.</param>
public sealed record RateLimitState(
    string Policy,
    long? Limit,
    long? WindowSeconds,
    long Remaining,
    long ResetSeconds,
    DateTimeOffset ResetsAt,
    long? RetryAfterSeconds,
    DateTimeOffset ObservedAt)
{
    /// <summary>
    /// Reads the rate-limit headers of a response. When <c>RateLimit</c> lists several policies, the one with the
    /// fewest calls remaining wins (it refuses first). Null without a usable <c>RateLimit</c> header.
    /// </summary>
    public static RateLimitState? Parse(HttpResponseHeaders headers, DateTimeOffset now)
    {
        ArgumentNullException.ThrowIfNull(headers);
        var tightest = StructuredFields.ParseList(Header(headers, "RateLimit"))
            .Where(item => item.IntegerParameter("r") is not null && item.IntegerParameter("t") is not null)
            .OrderBy(item => item.IntegerParameter("r"))
            .FirstOrDefault();
        if (tightest is null) return null;
        var policy = StructuredFields.ParseList(Header(headers, "RateLimit-Policy")).FirstOrDefault(item => item.Value == tightest.Value);
        var resetSeconds = tightest.IntegerParameter("t")!.Value;
        var retryAfter = RetryAfter(headers, now);
        return new RateLimitState(
            tightest.Value,
            policy?.IntegerParameter("q"),
            policy?.IntegerParameter("w"),
            tightest.IntegerParameter("r")!.Value,
            resetSeconds,
            now.AddSeconds(resetSeconds),
            retryAfter is { } wait ? (long)Math.Ceiling(wait.TotalSeconds) : null,
            now);
    }

    /// <summary>
    /// How long a <c>Retry-After</c> header asks to wait: integer seconds, or an HTTP date relative to
    /// <paramref name="now"/> (never negative). Null when absent or unreadable.
    /// </summary>
    public static TimeSpan? RetryAfter(HttpResponseHeaders headers, DateTimeOffset now)
    {
        ArgumentNullException.ThrowIfNull(headers);
        var raw = Header(headers, "Retry-After")?.Trim();
        if (string.IsNullOrEmpty(raw)) return null;
        if (raw.All(char.IsAsciiDigit) && long.TryParse(raw, NumberStyles.None, CultureInfo.InvariantCulture, out var seconds))
            return TimeSpan.FromSeconds(seconds);
        if (DateTimeOffset.TryParse(raw, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out var at))
            return at > now ? at - now : TimeSpan.Zero;
        return null;
    }

    /// <summary>All values of a header joined as one field value, or null.</summary>
    internal static string? Header(HttpHeaders headers, string name) =>
        headers.TryGetValues(name, out var values) ? string.Join(", ", values) : null;
}
