using Keygate.Client.Generated;
using Keygate.Client.Generated.Models;
using Keygate.Client.Generated.V2.Auth.Keys;
using Keygate.Client.Generated.V2.Auth.Keys.Item.Activity;
using Microsoft.Kiota.Abstractions;
using static Keygate.Client.Resources.Results;

namespace Keygate.Client.Resources;

/// <summary>API keys (scope <c>auth:rw</c>): a key manages keys of its own environment with scopes it holds itself.</summary>
public sealed class KeysResource
{
    private readonly KeygateApiClient _api;

    internal KeysResource(KeygateApiClient api) => _api = api;

    /// <summary>Lists the keys of the caller's environment, optionally only active or only revoked ones.</summary>
    [KeygateOperation("listKeys")]
    public async Task<ApiKeyList> ListAsync(GetStatusQueryParameterType? status = null, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Auth.Keys.GetAsync(c => c.QueryParameters.Status = status, cancellationToken).ConfigureAwait(false), "listKeys");

    /// <summary>Creates a key; the answer holds its secret, shown this once.</summary>
    [KeygateOperation("createKey")]
    public async Task<ApiKeyWithSecret> CreateAsync(CreateKeyRequest request, KeygateRequestOptions? options = null, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Auth.Keys.PostAsync(request, Requests.With<DefaultQueryParameters>(options), cancellationToken).ConfigureAwait(false), "createKey");

    /// <summary>Reads one key.</summary>
    [KeygateOperation("getKey")]
    public async Task<ApiKey> GetAsync(string id, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Auth.Keys[id].GetAsync(cancellationToken: cancellationToken).ConfigureAwait(false), "getKey");

    /// <summary>Replaces the key's scopes.</summary>
    [KeygateOperation("changeKeyScopes")]
    public async Task<ApiKey> ChangeScopesAsync(string id, IEnumerable<string> scopes, KeygateRequestOptions? options = null, CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.Auth.Keys[id].Scopes.PostAsync(new ChangeScopesRequest { Scopes = [.. scopes] }, Requests.With<DefaultQueryParameters>(options), cancellationToken).ConfigureAwait(false),
            "changeKeyScopes");

    /// <summary>
    /// Adds a new secret (in the answer, shown this once); the old one keeps working for <paramref name="overlapDays"/>
    /// days (0-7; the gateway's default when null) or until <see cref="CloseOldSecretAsync"/>.
    /// </summary>
    [KeygateOperation("rotateKey")]
    public async Task<ApiKeyWithSecret> RotateAsync(string id, int? overlapDays = null, KeygateRequestOptions? options = null, CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.Auth.Keys.WithIdRotate(id).PostAsync(new RotateKeyRequest { OverlapDays = overlapDays }, Requests.With<DefaultQueryParameters>(options), cancellationToken).ConfigureAwait(false),
            "rotateKey");

    /// <summary>Closes the old secret of a rotation now (or the secret <paramref name="secretId"/>).</summary>
    [KeygateOperation("closeOldKeySecret")]
    public async Task<ApiKey> CloseOldSecretAsync(string id, string? secretId = null, KeygateRequestOptions? options = null, CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.Auth.Keys.WithIdCloseOldSecret(id).PostAsync(new CloseOldSecretRequest { SecretId = secretId }, Requests.With<DefaultQueryParameters>(options), cancellationToken).ConfigureAwait(false),
            "closeOldKeySecret");

    /// <summary>Revokes the key and closes all its secrets.</summary>
    [KeygateOperation("revokeKey")]
    public async Task<ApiKey> RevokeAsync(string id, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Auth.Keys[id].DeleteAsync(cancellationToken: cancellationToken).ConfigureAwait(false), "revokeKey");

    /// <summary>Call counts, errors and latency of the key, per secret, between <paramref name="from"/> and <paramref name="to"/>.</summary>
    [KeygateOperation("getKeyUsage")]
    public async Task<KeyUsage> GetUsageAsync(string id, DateTimeOffset? from = null, DateTimeOffset? to = null, CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.Auth.Keys[id].Usage.GetAsync(
                c =>
                {
                    c.QueryParameters.From = from;
                    c.QueryParameters.To = to;
                },
                cancellationToken).ConfigureAwait(false),
            "getKeyUsage");

    /// <summary>The key's calls and spent cost in <paramref name="period"/> (<c>2026-11</c>, <c>2026-W48</c>, <c>2026-11-28</c>) by outcome, in <c>Billing</c>, beside its traffic.</summary>
    [KeygateOperation("getKeyUsage")]
    public async Task<KeyUsage> GetUsageAsync(string id, string period, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Auth.Keys[id].Usage.GetAsync(c => c.QueryParameters.Period = period, cancellationToken).ConfigureAwait(false), "getKeyUsage");

    /// <summary>Changes the key's identity, plan and own limits and quotas (<c>PATCH</c>: the members the request names).</summary>
    [KeygateOperation("updateKeyBudget")]
    public async Task<ApiKey> UpdateBudgetAsync(string id, UpdateKeyBudgetRequest request, KeygateRequestOptions? options = null, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Auth.Keys[id].PatchAsync(request, Requests.With<DefaultQueryParameters>(options), cancellationToken).ConfigureAwait(false), "updateKeyBudget");

    /// <summary>The key's own credit balance; a key of an identity holds none (409 <c>CREDITS_NOT_HELD</c>).</summary>
    [KeygateOperation("getKeyCredits")]
    public async Task<Credits> GetCreditsAsync(string id, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Auth.Keys[id].Credits.GetAsync(cancellationToken: cancellationToken).ConfigureAwait(false), "getKeyCredits");

    /// <summary>Sets, adds to or takes from the key's balance (exactly one of <c>Set</c>, <c>Increment</c>, <c>Decrement</c>), under an <c>Idempotency-Key</c>.</summary>
    [KeygateOperation("changeKeyCredits")]
    public async Task<Credits> ChangeCreditsAsync(string id, CreditsOperation operation, KeygateRequestOptions? options = null, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Auth.Keys[id].Credits.PostAsync(operation, Requests.With<DefaultQueryParameters>(options), cancellationToken).ConfigureAwait(false), "changeKeyCredits");

    /// <summary>One page of the key's activity log (changes to the key), newest first.</summary>
    [KeygateOperation("listKeyActivity")]
    public async Task<ActivityPage> ListActivityAsync(
        string id,
        GetActionQueryParameterType? action = null,
        int? limit = null,
        string? cursor = null,
        DateTimeOffset? from = null,
        DateTimeOffset? to = null,
        CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.Auth.Keys[id].Activity.GetAsync(
                c =>
                {
                    c.QueryParameters.Action = action;
                    c.QueryParameters.Limit = limit;
                    c.QueryParameters.Cursor = cursor;
                    c.QueryParameters.From = from;
                    c.QueryParameters.To = to;
                },
                cancellationToken).ConfigureAwait(false),
            "listKeyActivity");

    /// <summary>One page of the key's API log (calls made with it), newest first.</summary>
    [KeygateOperation("listKeyLogs")]
    public async Task<ApiLogPage> ListLogsAsync(
        string id,
        string? secretId = null,
        int? limit = null,
        string? cursor = null,
        DateTimeOffset? from = null,
        DateTimeOffset? to = null,
        CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.Auth.Keys[id].Logs.GetAsync(
                c =>
                {
                    c.QueryParameters.SecretId = secretId;
                    c.QueryParameters.Limit = limit;
                    c.QueryParameters.Cursor = cursor;
                    c.QueryParameters.From = from;
                    c.QueryParameters.To = to;
                },
                cancellationToken).ConfigureAwait(false),
            "listKeyLogs");

    /// <summary>Every entry of the key's activity log, newest first, fetched <paramref name="pageSize"/> at a time as the caller reads on.</summary>
    public IAsyncEnumerable<ActivityEntry> ListActivityAutoPagingAsync(
        string id,
        GetActionQueryParameterType? action = null,
        int? pageSize = null,
        DateTimeOffset? from = null,
        DateTimeOffset? to = null,
        CancellationToken cancellationToken = default) =>
        AutoPaging.WalkAsync(
            (cursor, ct) => ListActivityAsync(id, action, pageSize, cursor, from, to, ct),
            page => page.Items,
            page => page.NextCursor,
            cancellationToken);

    /// <summary>Every entry of the key's API log, newest first, fetched <paramref name="pageSize"/> at a time as the caller reads on.</summary>
    public IAsyncEnumerable<ApiLogEntry> ListLogsAutoPagingAsync(
        string id,
        string? secretId = null,
        int? pageSize = null,
        DateTimeOffset? from = null,
        DateTimeOffset? to = null,
        CancellationToken cancellationToken = default) =>
        AutoPaging.WalkAsync(
            (cursor, ct) => ListLogsAsync(id, secretId, pageSize, cursor, from, to, ct),
            page => page.Items,
            page => page.NextCursor,
            cancellationToken);
    /// <summary>
    /// The key's calls over time by outcome (VALID, RATE_LIMITED, QUOTA_EXCEEDED, …), one bucket a
    /// minute, hour or day in [<paramref name="from"/>, <paramref name="to"/>), counted by every gateway instance.
    /// </summary>
    [KeygateOperation("getKeyAnalytics")]
    public async Task<AnalyticsSeries> GetAnalyticsAsync(
        string id,
        DateTimeOffset? from = null,
        DateTimeOffset? to = null,
        Generated.V2.Auth.Keys.Item.Analytics.GetGranularityQueryParameterType? granularity = null,
        Generated.V2.Auth.Keys.Item.Analytics.GetOutcomeQueryParameterType? outcome = null,
        CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.Auth.Keys[id].Analytics.GetAsync(
                c =>
                {
                    c.QueryParameters.From = from;
                    c.QueryParameters.To = to;
                    c.QueryParameters.Granularity = granularity;
                    c.QueryParameters.Outcome = outcome;
                },
                cancellationToken).ConfigureAwait(false),
            "getKeyAnalytics");
}
