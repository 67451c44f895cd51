using Keygate.Client.Generated;
using Keygate.Client.Generated.Models;
using Keygate.Client.Generated.V2.Auth.Identities;
using Keygate.Client.Generated.V2.Auth.Usage.Export;
using Microsoft.Kiota.Abstractions;
using static Keygate.Client.Resources.Results;

namespace Keygate.Client.Resources;

/// <summary>
/// Identities (scope <c>auth:rw</c>): your customers (<c>externalId</c>), whose keys share one plan, one set of
/// quotas and one credit balance; their credits, their usage per period, and the billing export.
/// </summary>
public sealed class IdentitiesResource
{
    private readonly KeygateApiClient _api;

    internal IdentitiesResource(KeygateApiClient api) => _api = api;

    /// <summary>Creates an identity; an <c>externalId</c> taken in the environment is a 409 <c>IDENTITY_EXISTS</c>.</summary>
    [KeygateOperation("createIdentity")]
    public async Task<Identity> CreateAsync(CreateIdentityRequest request, KeygateRequestOptions? options = null, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Auth.Identities.PostAsync(request, Requests.With<DefaultQueryParameters>(options), cancellationToken).ConfigureAwait(false), "createIdentity");

    /// <summary>One page of identities, optionally of one environment.</summary>
    [KeygateOperation("listIdentities")]
    public async Task<IdentityPage> ListAsync(GetEnvironmentQueryParameterType? environment = null, int? limit = null, string? cursor = null, CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.Auth.Identities.GetAsync(
                c =>
                {
                    c.QueryParameters.Environment = environment;
                    c.QueryParameters.Limit = limit;
                    c.QueryParameters.Cursor = cursor;
                },
                cancellationToken).ConfigureAwait(false),
            "listIdentities");

    /// <summary>Every identity, fetched <paramref name="pageSize"/> at a time as the caller reads on.</summary>
    public IAsyncEnumerable<Identity> ListAutoPagingAsync(GetEnvironmentQueryParameterType? environment = null, int? pageSize = null, CancellationToken cancellationToken = default) =>
        AutoPaging.WalkAsync((cursor, ct) => ListAsync(environment, pageSize, cursor, ct), page => page.Items, page => page.NextCursor, cancellationToken);

    /// <summary>Reads an identity with its keys; an unknown id is a 404 <c>IDENTITY_NOT_FOUND</c>.</summary>
    [KeygateOperation("getIdentity")]
    public async Task<IdentityWithKeys> GetAsync(string id, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Auth.Identities[id].GetAsync(cancellationToken: cancellationToken).ConfigureAwait(false), "getIdentity");

    /// <summary>Replaces the members the request names (plan, meta, overrides).</summary>
    [KeygateOperation("updateIdentity")]
    public async Task<Identity> UpdateAsync(string id, UpdateIdentityRequest request, KeygateRequestOptions? options = null, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Auth.Identities[id].PatchAsync(request, Requests.With<DefaultQueryParameters>(options), cancellationToken).ConfigureAwait(false), "updateIdentity");

    /// <summary>Deletes an identity; one that still has keys is refused with 409 <c>IDENTITY_HAS_KEYS</c>.</summary>
    [KeygateOperation("deleteIdentity")]
    public Task DeleteAsync(string id, CancellationToken cancellationToken = default) =>
        _api.V2.Auth.Identities[id].DeleteAsync(cancellationToken: cancellationToken);

    /// <summary>The identity's credit balance, shared by its keys.</summary>
    [KeygateOperation("getIdentityCredits")]
    public async Task<Credits> GetCreditsAsync(string id, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Auth.Identities[id].Credits.GetAsync(cancellationToken: cancellationToken).ConfigureAwait(false), "getIdentityCredits");

    /// <summary>
    /// Sets, adds to or takes from the balance: exactly one of <c>Set</c>, <c>Increment</c>, <c>Decrement</c>. Sent with
    /// an <c>Idempotency-Key</c> (the caller's, else one per call), so a retried top-up counts once.
    /// </summary>
    [KeygateOperation("changeIdentityCredits")]
    public async Task<Credits> ChangeCreditsAsync(string id, CreditsOperation operation, KeygateRequestOptions? options = null, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Auth.Identities[id].Credits.PostAsync(operation, Requests.With<DefaultQueryParameters>(options), cancellationToken).ConfigureAwait(false), "changeIdentityCredits");

    /// <summary>Calls and spent cost of all the identity's keys in <paramref name="period"/> (<c>2026-11</c>, <c>2026-W48</c>, <c>2026-11-28</c>), by outcome.</summary>
    [KeygateOperation("getIdentityUsage")]
    public async Task<PeriodUsage> GetUsageAsync(string id, string period, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Auth.Identities[id].Usage.GetAsync(c => c.QueryParameters.Period = period, cancellationToken).ConfigureAwait(false), "getIdentityUsage");

    /// <summary>The billing export of <paramref name="period"/> for every identity (and key without one), as text: CSV or JSON lines.</summary>
    [KeygateOperation("exportUsage")]
    public async Task<string> ExportUsageAsync(string period, GetFormatQueryParameterType? format = null, CancellationToken cancellationToken = default)
    {
        using var reader = new StreamReader(await ExportUsageStreamAsync(period, format, cancellationToken).ConfigureAwait(false));
        return await reader.ReadToEndAsync(cancellationToken).ConfigureAwait(false);
    }

    /// <summary>The billing export as a stream, to copy to a file or read line by line; the caller disposes it.</summary>
    [KeygateOperation("exportUsage")]
    public async Task<Stream> ExportUsageStreamAsync(string period, GetFormatQueryParameterType? format = null, CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.Auth.Usage.Export.GetAsync(
                c =>
                {
                    c.QueryParameters.Period = period;
                    c.QueryParameters.Format = format;
                },
                cancellationToken).ConfigureAwait(false),
            "exportUsage");
    /// <summary>
    /// All the identity's keys' calls over time by outcome (VALID, RATE_LIMITED, QUOTA_EXCEEDED, …), one bucket a
    /// minute, hour or day in [<paramref name="from"/>, <paramref name="to"/>), counted by every gateway instance.
    /// </summary>
    [KeygateOperation("getIdentityAnalytics")]
    public async Task<AnalyticsSeries> GetAnalyticsAsync(
        string id,
        DateTimeOffset? from = null,
        DateTimeOffset? to = null,
        Generated.V2.Auth.Identities.Item.Analytics.GetGranularityQueryParameterType? granularity = null,
        Generated.V2.Auth.Identities.Item.Analytics.GetOutcomeQueryParameterType? outcome = null,
        CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.Auth.Identities[id].Analytics.GetAsync(
                c =>
                {
                    c.QueryParameters.From = from;
                    c.QueryParameters.To = to;
                    c.QueryParameters.Granularity = granularity;
                    c.QueryParameters.Outcome = outcome;
                },
                cancellationToken).ConfigureAwait(false),
            "getIdentityAnalytics");
}
