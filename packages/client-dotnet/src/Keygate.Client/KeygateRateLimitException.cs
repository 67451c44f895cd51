using System.Text.Json;

namespace Keygate.Client;

/// <summary>
/// A call refused with 429. <see cref="KeygateProblemException.Code"/> says which budget ran out:
/// <c>RATE_LIMITED</c> (a rate: wait <see cref="KeygateProblemException.RetryAfter"/>), <c>QUOTA_EXCEEDED</c> (a day,
/// week or month quota: <c>RetryAfter</c> runs to its reset) or <c>CREDITS_EXHAUSTED</c> (the balance: top it up;
/// <c>RetryAfter</c> is null when nothing refills it). <see cref="Policy"/> names the refusing limit or quota.
/// </summary>
public sealed class KeygateRateLimitException : KeygateProblemException
{
    /// <summary>Creates the exception for a 429 problem; the client makes it from the answer.</summary>
    public KeygateRateLimitException(
        string type,
        string title,
        int status,
        string detail,
        string code,
        string? requiredScope = null,
        TimeSpan? retryAfter = null,
        string? requestId = null,
        RateLimitState? rateLimit = null,
        IReadOnlyList<KeygateFieldError>? errors = null,
        string? body = null)
        : base(type, title, status, detail, code, requiredScope, retryAfter, requestId, rateLimit, errors, body)
    {
        Policy = PolicyOf(body);
    }

    /// <summary>The refusing limit's or quota's name (<c>minute</c>, <c>day</c>, <c>month</c>, …), when the problem names one.</summary>
    public string? Policy { get; }

    /// <summary>True for a spent quota or balance (<c>QUOTA_EXCEEDED</c>, <c>CREDITS_EXHAUSTED</c>), false for a rate limit.</summary>
    public bool IsBudgetSpent => Code is KeygateProblemCodes.QuotaExceeded or KeygateProblemCodes.CreditsExhausted;

    private static string? PolicyOf(string? body)
    {
        if (string.IsNullOrEmpty(body)) return null;
        try
        {
            using var document = JsonDocument.Parse(body);
            return document.RootElement.ValueKind == JsonValueKind.Object ? Text(document.RootElement, "policy") : null;
        }
        catch (JsonException)
        {
            return null;
        }
    }
}

/// <summary>Problem codes (<see cref="KeygateProblemException.Code"/>) a caller may want to act on; the API's error registry has them all.</summary>
public static class KeygateProblemCodes
{
    /// <summary>429: a rate limit (per second, minute or hour).</summary>
    public const string RateLimited = "RATE_LIMITED";
    /// <summary>429: a day, week or month quota is used up until its reset.</summary>
    public const string QuotaExceeded = "QUOTA_EXCEEDED";
    /// <summary>429: the credit balance cannot pay for the call.</summary>
    public const string CreditsExhausted = "CREDITS_EXHAUSTED";
    /// <summary>409: the first request with this Idempotency-Key is still running (the client retries it).</summary>
    public const string IdempotencyKeyInUse = "IDEMPOTENCY_KEY_IN_USE";
    /// <summary>404: no plan with that id.</summary>
    public const string PlanNotFound = "PLAN_NOT_FOUND";
    /// <summary>404: no identity with that id.</summary>
    public const string IdentityNotFound = "IDENTITY_NOT_FOUND";
    /// <summary>409: a key or an identity still names the plan.</summary>
    public const string PlanInUse = "PLAN_IN_USE";
    /// <summary>409: the identity still has keys.</summary>
    public const string IdentityHasKeys = "IDENTITY_HAS_KEYS";
    /// <summary>409: the externalId is taken in the environment.</summary>
    public const string IdentityExists = "IDENTITY_EXISTS";
    /// <summary>409: a key of an identity holds no credits of its own.</summary>
    public const string CreditsNotHeld = "CREDITS_NOT_HELD";
}
