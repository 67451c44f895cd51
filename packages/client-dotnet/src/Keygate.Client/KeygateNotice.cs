using System.Globalization;
using System.Text.RegularExpressions;

namespace Keygate.Client;

/// <summary>Something a response told the integrator to act on: a deprecated operation or a key about to expire.</summary>
public abstract record KeygateNotice;

/// <summary>An operation answered with <c>Deprecation</c> (RFC 9745) and possibly <c>Sunset</c> (RFC 8594).</summary>
/// <param name="Operation"><c>METHOD /path/{template}</c> as documented, e.g. <c>GET /v2/channels</c>.</param>
/// <param name="DeprecatedAt">When the operation was (or will be) deprecated; null when the header gave no date.</param>
/// <param name="SunsetAt">When the operation stops answering, from <c>Sunset</c>; null without one.</param>
/// <param name="Link">The deprecation (else sunset) policy link from <c>Link</c>, when given.</param>
public sealed record DeprecationNotice(string Operation, DateTimeOffset? DeprecatedAt, DateTimeOffset? SunsetAt, string? Link) : KeygateNotice;

/// <summary>The key used for a call expires soon (<c>Keygate-Key-Expires: 2026-03-31; days-left=5</c>).</summary>
/// <param name="ExpiresOn">The key's last valid day.</param>
/// <param name="DaysLeft">Days left, rounded up (1 on the last day); null when the header did not say.</param>
public sealed record KeyExpiryNotice(DateOnly ExpiresOn, int? DaysLeft) : KeygateNotice;

/// <summary>Reads notices from responses and reports each one once per client.</summary>
internal sealed partial class NoticeTracker(Action<KeygateNotice>? onNotice)
{
    /// <summary>The gateway's key-expiry notice header.</summary>
    public const string KeyExpiryHeader = "Keygate-Key-Expires";

    private readonly HashSet<string> _seen = [];
    private readonly object _lock = new();

    /// <summary>
    /// Calls the callback for a deprecated operation (once per operation) and an expiring key (once per announced
    /// expiry day), so a loop of calls does not repeat the same warning.
    /// </summary>
    public void Observe(HttpRequestMessage request, HttpResponseMessage response)
    {
        if (onNotice is null) return;
        var operation = $"{request.Method.Method} {OperationPaths.TemplateOf(request.RequestUri?.AbsolutePath ?? "/")}";
        Once($"deprecation {operation}", DeprecationOf(response, operation));
        var expiry = KeyExpiryOf(response);
        Once($"key-expiry {expiry?.ExpiresOn:yyyy-MM-dd}", expiry);
    }

    private void Once(string id, KeygateNotice? notice)
    {
        if (notice is null) return;
        lock (_lock)
        {
            if (!_seen.Add(id)) return;
        }
        onNotice!(notice);
    }

    /// <summary>The deprecation notice of a response for <paramref name="operation"/>, or null when it is not deprecated.</summary>
    public static DeprecationNotice? DeprecationOf(HttpResponseMessage response, string operation)
    {
        var deprecation = Header(response, "Deprecation");
        var sunset = Header(response, "Sunset");
        if (deprecation is null && sunset is null) return null;
        var links = Header(response, "Link");
        return new DeprecationNotice(
            operation,
            deprecation is null ? null : ParseDeprecationDate(deprecation),
            sunset is not null && DateTimeOffset.TryParse(sunset, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out var at) ? at : null,
            LinkWithRel(links, "deprecation") ?? LinkWithRel(links, "sunset"));
    }

    /// <summary>The key-expiry notice of a response, or null when the key is not about to expire.</summary>
    public static KeyExpiryNotice? KeyExpiryOf(HttpResponseMessage response)
    {
        var item = StructuredFields.ParseList(Header(response, KeyExpiryHeader)).FirstOrDefault();
        if (item is null || !DateOnly.TryParseExact(item.Value, "yyyy-MM-dd", CultureInfo.InvariantCulture, DateTimeStyles.None, out var day))
            return null;
        var daysLeft = item.IntegerParameter("days-left");
        return new KeyExpiryNotice(day, daysLeft is { } d ? (int)d : null);
    }

    /// <summary><c>Deprecation: @1767225600</c> (RFC 9745); also an HTTP date, or <c>?1</c>/<c>true</c> (no date).</summary>
    private static DateTimeOffset? ParseDeprecationDate(string raw)
    {
        var text = raw.Trim();
        if (text.StartsWith('@') && long.TryParse(text[1..], NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var seconds))
            return DateTimeOffset.FromUnixTimeSeconds(seconds);
        return DateTimeOffset.TryParse(text, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out var at) ? at : null;
    }

    /// <summary>The target of the first <c>Link</c> whose <c>rel</c> includes <paramref name="rel"/>.</summary>
    internal static string? LinkWithRel(string? header, string rel)
    {
        if (string.IsNullOrEmpty(header)) return null;
        foreach (Match match in LinkPattern().Matches(header))
        {
            var rels = RelPattern().Match(match.Groups[2].Value);
            var names = (rels.Groups[1].Success ? rels.Groups[1].Value : rels.Groups[2].Value)
                .ToLowerInvariant()
                .Split(' ', StringSplitOptions.RemoveEmptyEntries);
            if (names.Contains(rel)) return match.Groups[1].Value;
        }
        return null;
    }

    private static string? Header(HttpResponseMessage response, string name) =>
        RateLimitState.Header(response.Headers, name) ?? RateLimitState.Header(response.Content.Headers, name);

    [GeneratedRegex("<([^>]*)>([^<]*)")]
    private static partial Regex LinkPattern();

    [GeneratedRegex("""; *rel *= *(?:"([^"]*)"|([^\s;,]+))""", RegexOptions.IgnoreCase)]
    private static partial Regex RelPattern();
}
