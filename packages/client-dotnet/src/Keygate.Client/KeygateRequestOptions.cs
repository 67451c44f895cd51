namespace Keygate.Client;

/// <summary>Options of one call, e.g. <c>new KeygateRequestOptions { IdempotencyKey = order.Reference }</c>.</summary>
public sealed record KeygateRequestOptions
{
    /// <summary>The request header that makes a POST or PATCH safe to send again (draft-ietf-httpapi-idempotency-key-header).</summary>
    public const string IdempotencyKeyHeader = "Idempotency-Key";

    /// <summary>
    /// The <c>Idempotency-Key</c> of a POST or PATCH (1-255 visible ASCII characters). Without it the client makes a
    /// UUIDv4 per call. Send the same key again only for the same request: the API answers a repeat with the first
    /// answer, and a different request under a used key with 422 <c>IDEMPOTENCY_KEY_REUSED</c>.
    /// </summary>
    public string? IdempotencyKey { get; init; }

    /// <summary>Throws when <paramref name="key"/> is not 1-255 visible ASCII characters, before anything is sent.</summary>
    internal static void ValidateIdempotencyKey(string key)
    {
        if (key.Length is 0 or > 255 || key.Any(c => c is < '!' or > '~'))
            throw new ArgumentException("keygate client: an Idempotency-Key is 1-255 visible ASCII characters", nameof(IdempotencyKey));
    }
}
