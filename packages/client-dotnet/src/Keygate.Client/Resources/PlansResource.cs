using Keygate.Client.Generated;
using Keygate.Client.Generated.Models;
using Microsoft.Kiota.Abstractions;
using static Keygate.Client.Resources.Results;

namespace Keygate.Client.Resources;

/// <summary>
/// Plans (scope <c>auth:rw</c>): named rate limits, quotas per day, week or month and a credits refill, shared by
/// every key and identity on the plan. A change reaches every gateway instance as fast as a revocation.
/// </summary>
public sealed class PlansResource
{
    private readonly KeygateApiClient _api;

    internal PlansResource(KeygateApiClient api) => _api = api;

    /// <summary>Creates a plan; the answer carries its <c>id</c> (<c>pln_…</c>).</summary>
    [KeygateOperation("createPlan")]
    public async Task<Plan> CreateAsync(CreatePlanRequest request, KeygateRequestOptions? options = null, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Auth.Plans.PostAsync(request, Requests.With<DefaultQueryParameters>(options), cancellationToken).ConfigureAwait(false), "createPlan");

    /// <summary>Every plan (plans belong to no environment and are few, so the list is not paged).</summary>
    [KeygateOperation("listPlans")]
    public async Task<PlanList> ListAsync(CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Auth.Plans.GetAsync(cancellationToken: cancellationToken).ConfigureAwait(false), "listPlans");

    /// <summary>Reads one plan; an unknown id is a 404 <c>PLAN_NOT_FOUND</c>.</summary>
    [KeygateOperation("getPlan")]
    public async Task<Plan> GetAsync(string id, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Auth.Plans[id].GetAsync(cancellationToken: cancellationToken).ConfigureAwait(false), "getPlan");

    /// <summary>Replaces the members the request names (limits, quotas, credits, name); the rest stay.</summary>
    [KeygateOperation("updatePlan")]
    public async Task<Plan> UpdateAsync(string id, UpdatePlanRequest request, KeygateRequestOptions? options = null, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Auth.Plans[id].PatchAsync(request, Requests.With<DefaultQueryParameters>(options), cancellationToken).ConfigureAwait(false), "updatePlan");

    /// <summary>Deletes a plan; one that a key or an identity still names is refused with 409 <c>PLAN_IN_USE</c>.</summary>
    [KeygateOperation("deletePlan")]
    public Task DeleteAsync(string id, CancellationToken cancellationToken = default) =>
        _api.V2.Auth.Plans[id].DeleteAsync(cancellationToken: cancellationToken);
}
