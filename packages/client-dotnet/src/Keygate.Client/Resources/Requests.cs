using Microsoft.Kiota.Abstractions;

namespace Keygate.Client.Resources;

/// <summary>Turns a call's <see cref="KeygateRequestOptions"/> into Kiota request configuration.</summary>
internal static class Requests
{
    /// <summary>Adds the caller's <c>Idempotency-Key</c>, if any; otherwise the handler makes one per call.</summary>
    public static Action<RequestConfiguration<T>>? With<T>(KeygateRequestOptions? options)
        where T : class, new()
    {
        if (options?.IdempotencyKey is not { } key) return null;
        KeygateRequestOptions.ValidateIdempotencyKey(key);
        return c => c.Headers.Add(KeygateRequestOptions.IdempotencyKeyHeader, key);
    }
}
