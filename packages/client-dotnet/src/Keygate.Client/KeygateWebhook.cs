using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;

namespace Keygate.Client;

/// <summary>Why a webhook was refused; stable codes a receiver can log or branch on.</summary>
public enum WebhookVerificationCode
{
    /// <summary><c>webhook-id</c>, <c>webhook-timestamp</c> or <c>webhook-signature</c> is missing.</summary>
    MissingHeaders,
    /// <summary><c>webhook-timestamp</c> is not Unix seconds.</summary>
    InvalidTimestamp,
    /// <summary>The timestamp is older than the tolerance (a replay, or a clock far behind).</summary>
    TimestampTooOld,
    /// <summary>The timestamp is further in the future than the tolerance.</summary>
    TimestampTooNew,
    /// <summary>No <c>v1,</c> signature matches any of the secrets.</summary>
    NoMatchingSignature,
    /// <summary>The signed body is not JSON.</summary>
    InvalidPayload,
}

/// <summary>Thrown by <see cref="KeygateWebhook.Verify(IEnumerable{string}, IEnumerable{KeyValuePair{string, string}}, string, KeygateWebhookVerifyOptions?)"/>; <see cref="Code"/> says why.</summary>
public sealed class WebhookVerificationException(WebhookVerificationCode code, string message) : Exception(message)
{
    /// <summary>Why the webhook was refused.</summary>
    public WebhookVerificationCode Code { get; } = code;
}

/// <summary>A verified message: its id (dedupe on it, it is the same on every retry), its timestamp and the JSON body.</summary>
/// <param name="Id">The <c>webhook-id</c>.</param>
/// <param name="Timestamp">When this attempt was signed.</param>
/// <param name="Payload">The parsed body: <c>type</c>, <c>environment</c>, <c>data</c>, ….</param>
public sealed record VerifiedWebhook(string Id, DateTimeOffset Timestamp, JsonElement Payload);

/// <summary>Options of <see cref="KeygateWebhook"/>.</summary>
public sealed record KeygateWebhookVerifyOptions
{
    /// <summary>How far the timestamp may be from now, either way (default 5 minutes, the reference libraries' value).</summary>
    public TimeSpan Tolerance { get; init; } = KeygateWebhook.DefaultTolerance;

    /// <summary>The clock (default the system's).</summary>
    public TimeProvider TimeProvider { get; init; } = TimeProvider.System;
}

/// <summary>
/// Verifies keygate's webhook deliveries on the receiving side, as Standard Webhooks 1.0 specifies: HMAC-SHA256 of
/// <c>{webhook-id}.{webhook-timestamp}.{body}</c> with the decoded <c>whsec_</c> secret, sent as <c>v1,&lt;base64&gt;</c>.
/// </summary>
public static class KeygateWebhook
{
    /// <summary>The header carrying the message id (the same on every retry).</summary>
    public const string IdHeader = "webhook-id";
    /// <summary>The header carrying the Unix seconds of this attempt.</summary>
    public const string TimestampHeader = "webhook-timestamp";
    /// <summary>The header carrying one or more space-separated <c>v1,</c> signatures.</summary>
    public const string SignatureHeader = "webhook-signature";
    /// <summary>The default timestamp tolerance, either way.</summary>
    public static readonly TimeSpan DefaultTolerance = TimeSpan.FromMinutes(5);

    private const string SecretPrefix = "whsec_";

    /// <summary>Verifies a delivery against one secret. See the overload taking several secrets.</summary>
    public static VerifiedWebhook Verify(string secret, IEnumerable<KeyValuePair<string, string>> headers, string body, KeygateWebhookVerifyOptions? options = null) =>
        Verify([secret], headers, body, options);

    /// <summary>
    /// Verifies a delivery: the three headers are present, the timestamp is within the tolerance of now, and one
    /// <c>v1,</c> signature matches one of <paramref name="secrets"/> (compared in constant time; pass the old and the
    /// new secret while rotating). <paramref name="body"/> is the raw request body, exactly as received.
    /// Throws <see cref="WebhookVerificationException"/>.
    /// </summary>
    public static VerifiedWebhook Verify(
        IEnumerable<string> secrets,
        IEnumerable<KeyValuePair<string, string>> headers,
        string body,
        KeygateWebhookVerifyOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(secrets);
        ArgumentNullException.ThrowIfNull(headers);
        ArgumentNullException.ThrowIfNull(body);
        options ??= new KeygateWebhookVerifyOptions();
        var keys = secrets.Select(DecodeSecret).ToList();
        if (keys.Count == 0) throw new ArgumentException("at least one webhook secret is required", nameof(secrets));
        var id = Header(headers, IdHeader);
        var rawTimestamp = Header(headers, TimestampHeader);
        var signatures = Header(headers, SignatureHeader);
        if (string.IsNullOrEmpty(id) || string.IsNullOrEmpty(rawTimestamp) || string.IsNullOrEmpty(signatures))
            throw new WebhookVerificationException(WebhookVerificationCode.MissingHeaders, "webhook-id, -timestamp and -signature are required");
        var timestamp = CheckTimestamp(rawTimestamp, options);
        var signed = Encoding.UTF8.GetBytes($"{id}.{rawTimestamp}.{body}");
        var candidates = signatures.Split(' ', StringSplitOptions.RemoveEmptyEntries)
            .Where(entry => entry.StartsWith("v1,", StringComparison.Ordinal))
            .Select(entry => DecodeSignature(entry[3..]))
            .ToList();
        // Every secret is compared against every candidate, so the work done does not reveal which matched.
        var matched = false;
        foreach (var key in keys)
        {
            var expected = HMACSHA256.HashData(key, signed);
            foreach (var candidate in candidates)
                matched = (candidate is not null && CryptographicOperations.FixedTimeEquals(candidate, expected)) | matched;
        }
        if (!matched) throw new WebhookVerificationException(WebhookVerificationCode.NoMatchingSignature, "no signature matches");
        try
        {
            using var document = JsonDocument.Parse(body);
            return new VerifiedWebhook(id, timestamp, document.RootElement.Clone());
        }
        catch (JsonException)
        {
            throw new WebhookVerificationException(WebhookVerificationCode.InvalidPayload, "the body is not JSON");
        }
    }

    /// <summary>Verifies a delivery whose headers come as an <see cref="HttpRequestMessage"/>-style header collection.</summary>
    public static VerifiedWebhook Verify(
        IEnumerable<string> secrets,
        IEnumerable<KeyValuePair<string, IEnumerable<string>>> headers,
        string body,
        KeygateWebhookVerifyOptions? options = null) =>
        Verify(secrets, headers.Select(h => new KeyValuePair<string, string>(h.Key, string.Join(' ', h.Value))), body, options);

    /// <summary>The HMAC key of a secret: the base64 after <c>whsec_</c> (the prefix is optional).</summary>
    private static byte[] DecodeSecret(string secret)
    {
        ArgumentException.ThrowIfNullOrEmpty(secret);
        var encoded = secret.StartsWith(SecretPrefix, StringComparison.Ordinal) ? secret[SecretPrefix.Length..] : secret;
        try
        {
            var key = Convert.FromBase64String(encoded);
            if (key.Length > 0) return key;
        }
        catch (FormatException)
        {
        }
        throw new ArgumentException("a webhook secret is whsec_ followed by base64", nameof(secret));
    }

    /// <summary>The 32 bytes of a canonically encoded v1 signature (43 base64 characters and <c>=</c>), or null.</summary>
    private static byte[]? DecodeSignature(string candidate)
    {
        if (candidate.Length != 44 || candidate[43] != '=') return null;
        try
        {
            var bytes = Convert.FromBase64String(candidate);
            return bytes.Length == 32 && Convert.ToBase64String(bytes) == candidate ? bytes : null;
        }
        catch (FormatException)
        {
            return null;
        }
    }

    private static DateTimeOffset CheckTimestamp(string raw, KeygateWebhookVerifyOptions options)
    {
        if (raw.Length > 12 || !raw.All(char.IsAsciiDigit) || !long.TryParse(raw, NumberStyles.None, CultureInfo.InvariantCulture, out var seconds))
            throw new WebhookVerificationException(WebhookVerificationCode.InvalidTimestamp, "webhook-timestamp is not Unix seconds");
        var now = options.TimeProvider.GetUtcNow().ToUnixTimeSeconds();
        var tolerance = (long)options.Tolerance.TotalSeconds;
        if (seconds < now - tolerance) throw new WebhookVerificationException(WebhookVerificationCode.TimestampTooOld, "webhook-timestamp is too old");
        if (seconds > now + tolerance) throw new WebhookVerificationException(WebhookVerificationCode.TimestampTooNew, "webhook-timestamp is too far in the future");
        return DateTimeOffset.FromUnixTimeSeconds(seconds);
    }

    private static string? Header(IEnumerable<KeyValuePair<string, string>> headers, string name)
    {
        var values = headers.Where(h => string.Equals(h.Key, name, StringComparison.OrdinalIgnoreCase)).Select(h => h.Value).ToList();
        return values.Count == 0 ? null : string.Join(' ', values);
    }
}
