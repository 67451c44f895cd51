using Keygate.Client.Generated;
using Keygate.Client.Generated.Models;
using Microsoft.Kiota.Abstractions;
using static Keygate.Client.Resources.Results;

namespace Keygate.Client.Resources;

/// <summary>
/// Alert endpoints (scope <c>auth:rw</c>): where the gateway sends its signed alerts (expiring keys, quota
/// thresholds, low credits, key changes), their deliveries, and the alerts as a stream.
/// </summary>
public sealed class AlertsResource
{
    private readonly KeygateApiClient _api;

    internal AlertsResource(KeygateApiClient api) => _api = api;

    /// <summary>Creates an endpoint; the answer holds its signing secret (<c>whsec_…</c>), shown this once.</summary>
    [KeygateOperation("createAlertEndpoint")]
    public async Task<AlertEndpointWithSecret> CreateEndpointAsync(CreateAlertEndpointRequest request, KeygateRequestOptions? options = null, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Auth.AlertEndpoints.PostAsync(request, Requests.With<DefaultQueryParameters>(options), cancellationToken).ConfigureAwait(false), "createAlertEndpoint");

    /// <summary>Lists the endpoints (without their secrets).</summary>
    [KeygateOperation("listAlertEndpoints")]
    public async Task<AlertEndpointList> ListEndpointsAsync(CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Auth.AlertEndpoints.GetAsync(cancellationToken: cancellationToken).ConfigureAwait(false), "listAlertEndpoints");

    /// <summary>Reads an endpoint.</summary>
    [KeygateOperation("getAlertEndpoint")]
    public async Task<AlertEndpoint> GetEndpointAsync(string id, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Auth.AlertEndpoints[id].GetAsync(cancellationToken: cancellationToken).ConfigureAwait(false), "getAlertEndpoint");

    /// <summary>Changes an endpoint's URL, event types, identity filter or enabled state.</summary>
    [KeygateOperation("updateAlertEndpoint")]
    public async Task<AlertEndpoint> UpdateEndpointAsync(string id, UpdateAlertEndpointRequest request, KeygateRequestOptions? options = null, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Auth.AlertEndpoints[id].PatchAsync(request, Requests.With<DefaultQueryParameters>(options), cancellationToken).ConfigureAwait(false), "updateAlertEndpoint");

    /// <summary>Deletes an endpoint.</summary>
    [KeygateOperation("deleteAlertEndpoint")]
    public Task DeleteEndpointAsync(string id, CancellationToken cancellationToken = default) =>
        _api.V2.Auth.AlertEndpoints[id].DeleteAsync(cancellationToken: cancellationToken);

    /// <summary>A new signing secret (in the answer); alerts are signed with both for <paramref name="overlapHours"/> hours.</summary>
    [KeygateOperation("rotateAlertEndpointSecret")]
    public async Task<AlertEndpointWithSecret> RotateSecretAsync(string id, int? overlapHours = null, KeygateRequestOptions? options = null, CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.Auth.AlertEndpoints.WithIdRotateSecret(id)
                .PostAsync(new RotateWebhookSecretRequest { OverlapHours = overlapHours }, Requests.With<DefaultQueryParameters>(options), cancellationToken).ConfigureAwait(false),
            "rotateAlertEndpointSecret");

    /// <summary>Sends a test alert to the endpoint.</summary>
    [KeygateOperation("sendAlertEndpointTest")]
    public async Task<AlertDelivery> SendTestAsync(string id, KeygateRequestOptions? options = null, CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.Auth.AlertEndpoints.WithIdTest(id).PostAsync(Requests.With<DefaultQueryParameters>(options), cancellationToken).ConfigureAwait(false),
            "sendAlertEndpointTest");

    /// <summary>One page of the endpoint's deliveries, newest first.</summary>
    [KeygateOperation("listAlertDeliveries")]
    public async Task<AlertDeliveryPage> ListDeliveriesAsync(string id, int? limit = null, string? cursor = null, CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.Auth.AlertEndpoints[id].Deliveries.GetAsync(
                c =>
                {
                    c.QueryParameters.Limit = limit;
                    c.QueryParameters.Cursor = cursor;
                },
                cancellationToken).ConfigureAwait(false),
            "listAlertDeliveries");

    /// <summary>Every delivery of the endpoint, newest first, fetched <paramref name="pageSize"/> at a time as the caller reads on.</summary>
    public IAsyncEnumerable<AlertDelivery> ListDeliveriesAutoPagingAsync(string id, int? pageSize = null, CancellationToken cancellationToken = default) =>
        AutoPaging.WalkAsync(
            (cursor, ct) => ListDeliveriesAsync(id, pageSize, cursor, ct),
            page => page.Data,
            page => page.NextCursor,
            cancellationToken);

    /// <summary>Delivers an alert again (same <c>webhook-id</c>, so receivers can dedupe).</summary>
    [KeygateOperation("resendAlertDelivery")]
    public async Task<AlertDelivery> ResendDeliveryAsync(string deliveryId, KeygateRequestOptions? options = null, CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.Auth.AlertDeliveries.WithIdResend(deliveryId).PostAsync(Requests.With<DefaultQueryParameters>(options), cancellationToken).ConfigureAwait(false),
            "resendAlertDelivery");

    /// <summary>
    /// The gateway's alerts as they are recorded, after <paramref name="lastEventId"/> when given. Runs until the
    /// token is cancelled or the gateway ends the stream (the key revoked, expired or its secret closed).
    /// </summary>
    [KeygateOperation("streamAlertEvents")]
    public async IAsyncEnumerable<KeygateStreamEvent> StreamEventsAsync(
        string? lastEventId = null,
        [System.Runtime.CompilerServices.EnumeratorCancellation] CancellationToken cancellationToken = default)
    {
        var stream = await _api.V2.Auth.AlertEventsStream.GetAsync(
            c =>
            {
                if (lastEventId is not null) c.Headers.Add("Last-Event-ID", lastEventId);
            },
            cancellationToken).ConfigureAwait(false);
        await using (Required(stream, "streamAlertEvents").ConfigureAwait(false))
        {
            await foreach (var item in EventStreamReader.ReadAsync(stream!, cancellationToken).ConfigureAwait(false)) yield return item;
        }
    }
}
