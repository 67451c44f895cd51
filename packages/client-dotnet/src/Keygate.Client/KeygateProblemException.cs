using System.Text.Json;

namespace Keygate.Client;

/// <summary>One entry of a validation problem's <c>errors</c>: what is wrong, and where (a JSON pointer).</summary>
/// <param name="Detail">What is wrong with the value.</param>
/// <param name="Pointer">Where it is, as a JSON pointer into the request body (e.g. <c>/scopes/0</c>).</param>
public sealed record KeygateFieldError(string Detail, string? Pointer);

/// <summary>
/// An error answer from keygate (<c>application/problem+json</c>, RFC 9457) thrown by every call: the problem's
/// members, the request id and, on a 429, the key's rate-limit state. A 429 is thrown as the subclass
/// <see cref="KeygateRateLimitException"/>; <see cref="KeygateProblemCodes"/> names the codes worth a <c>when</c> filter.
/// </summary>
public class KeygateProblemException : Exception
{
    /// <summary>The <c>Code</c> of a problem the client makes up when an error answer carries no problem body.</summary>
    public const string UnexpectedResponse = "UNEXPECTED_RESPONSE";

    /// <summary>Creates the exception for a problem; <see cref="FromResponseAsync"/> is what the client uses.</summary>
    public KeygateProblemException(
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
        : base($"{status} {code}: {detail}")
    {
        Type = type;
        Title = title;
        Status = status;
        Detail = detail;
        Code = code;
        RequiredScope = requiredScope;
        RetryAfter = retryAfter;
        RequestId = requestId;
        RateLimit = rateLimit;
        Errors = errors ?? [];
        Body = body;
    }

    /// <summary>The problem type URI, e.g. <c>https://keygate.dev/problems/insufficient-scope</c>.</summary>
    public string Type { get; }
    /// <summary>A short summary of the problem type.</summary>
    public string Title { get; }
    /// <summary>The HTTP status code.</summary>
    public int Status { get; }
    /// <summary>What went wrong and what to do, for a person.</summary>
    public string Detail { get; }
    /// <summary>The stable UPPER_SNAKE code (e.g. <c>INSUFFICIENT_SCOPE</c>, <c>RATE_LIMITED</c>).</summary>
    public string Code { get; }
    /// <summary>On <c>INSUFFICIENT_SCOPE</c>: the scope the call needs.</summary>
    public string? RequiredScope { get; }
    /// <summary>How long to wait before trying again: the <c>Retry-After</c> header, else the body's <c>retryAfter</c>.</summary>
    public TimeSpan? RetryAfter { get; }
    /// <summary>The gateway's request id (<c>req_…</c>) from <c>X-Request-Id</c>, else the problem's <c>instance</c>.</summary>
    public string? RequestId { get; }
    /// <summary>The <c>RateLimit</c> / <c>RateLimit-Policy</c> state the answer announced (always there on a 429).</summary>
    public RateLimitState? RateLimit { get; }
    /// <summary>On a validation problem: each field that is wrong.</summary>
    public IReadOnlyList<KeygateFieldError> Errors { get; }
    /// <summary>The raw answer body, for members this client does not name.</summary>
    public string? Body { get; }

    /// <summary>
    /// Reads an error answer: its problem body when it is one, else a stand-in with code <see cref="UnexpectedResponse"/>
    /// describing what came back (e.g. an HTML page from a proxy in between).
    /// </summary>
    public static async Task<KeygateProblemException> FromResponseAsync(
        HttpResponseMessage response,
        RateLimitState? rateLimit,
        DateTimeOffset now,
        CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(response);
        var body = await response.Content.ReadAsStringAsync(cancellationToken).ConfigureAwait(false);
        var status = (int)response.StatusCode;
        var requestId = RateLimitState.Header(response.Headers, "X-Request-Id");
        var retryAfterHeader = RateLimitState.RetryAfter(response.Headers, now);
        if (TryReadProblem(body) is { } problem)
        {
            var root = problem.RootElement;
            var retryAfter = retryAfterHeader ?? (Integer(root, "retryAfter") is { } seconds ? TimeSpan.FromSeconds(seconds) : null);
            using (problem)
            {
                return Create(
                    Text(root, "type")!,
                    Text(root, "title")!,
                    Integer(root, "status") is { } s ? (int)s : status,
                    Text(root, "detail") ?? "",
                    Text(root, "code")!,
                    Text(root, "requiredScope"),
                    retryAfter,
                    requestId ?? Text(root, "instance"),
                    rateLimit,
                    FieldErrors(root),
                    body);
            }
        }
        var reason = string.IsNullOrEmpty(response.ReasonPhrase) ? $"HTTP {status}" : response.ReasonPhrase;
        var detail = body.Length > 0 ? body[..Math.Min(body.Length, 500)] : $"HTTP {status} without a problem body";
        return Create("about:blank", reason, status, detail, UnexpectedResponse, null, retryAfterHeader, requestId, rateLimit, null, body);
    }

    /// <summary>The exception of the status's class: <see cref="KeygateRateLimitException"/> for a 429.</summary>
    private static KeygateProblemException Create(
        string type, string title, int status, string detail, string code, string? requiredScope, TimeSpan? retryAfter,
        string? requestId, RateLimitState? rateLimit, IReadOnlyList<KeygateFieldError>? errors, string? body) =>
        status == 429
            ? new KeygateRateLimitException(type, title, status, detail, code, requiredScope, retryAfter, requestId, rateLimit, errors, body)
            : new KeygateProblemException(type, title, status, detail, code, requiredScope, retryAfter, requestId, rateLimit, errors, body);

    /// <summary>The body as a problem: a JSON object with the string members type, title, code and a numeric status.</summary>
    private static JsonDocument? TryReadProblem(string body)
    {
        if (body.Length == 0) return null;
        try
        {
            var document = JsonDocument.Parse(body);
            var root = document.RootElement;
            if (root.ValueKind == JsonValueKind.Object && Text(root, "type") is not null && Text(root, "title") is not null &&
                Text(root, "code") is not null && Integer(root, "status") is not null)
                return document;
            document.Dispose();
            return null;
        }
        catch (JsonException)
        {
            return null;
        }
    }

    internal static string? Text(JsonElement root, string name) =>
        root.TryGetProperty(name, out var value) && value.ValueKind == JsonValueKind.String ? value.GetString() : null;

    private static long? Integer(JsonElement root, string name) =>
        root.TryGetProperty(name, out var value) && value.ValueKind == JsonValueKind.Number && value.TryGetInt64(out var number) ? number : null;

    private static List<KeygateFieldError> FieldErrors(JsonElement root)
    {
        var errors = new List<KeygateFieldError>();
        if (!root.TryGetProperty("errors", out var list) || list.ValueKind != JsonValueKind.Array) return errors;
        foreach (var item in list.EnumerateArray())
            if (item.ValueKind == JsonValueKind.Object && Text(item, "detail") is { } detail)
                errors.Add(new KeygateFieldError(detail, Text(item, "pointer")));
        return errors;
    }
}
