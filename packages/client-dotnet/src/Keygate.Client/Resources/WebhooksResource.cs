using Keygate.Client.Generated;
using Keygate.Client.Generated.Models;
using static Keygate.Client.Resources.Results;

namespace Keygate.Client.Resources;

/// <summary>Webhook endpoints and deliveries (scope <c>webhook:rw</c>; <c>webhook:r</c> to read).</summary>
public sealed class WebhooksResource
{
    private readonly KeygateApiClient _api;

    internal WebhooksResource(KeygateApiClient api) => _api = api;

    /// <summary>The event types an endpoint can subscribe to.</summary>
    public async Task<EventTypeList> ListEventTypesAsync(CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Webhooks.EventTypes.GetAsync(cancellationToken: cancellationToken).ConfigureAwait(false), "listWebhookEventTypes");

    /// <summary>Creates an endpoint for <paramref name="url"/>; the answer holds its signing secret (<c>whsec_…</c>), shown this once.</summary>
    public async Task<WebhookEndpointWithSecret> CreateEndpointAsync(
        string url,
        IEnumerable<string>? eventTypes = null,
        string? description = null,
        CancellationToken cancellationToken = default)
    {
        var request = new CreateWebhookEndpointRequest
        {
            Url = url,
            Description = description,
            EventTypes = eventTypes is null ? null : new CreateWebhookEndpointRequest.CreateWebhookEndpointRequest_eventTypes { String = [.. eventTypes] },
        };
        return Required(await _api.V2.Webhooks.Endpoints.PostAsync(request, cancellationToken: cancellationToken).ConfigureAwait(false), "createWebhookEndpoint");
    }

    /// <summary>Lists the endpoints (without their secrets).</summary>
    public async Task<WebhookEndpointList> ListEndpointsAsync(CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Webhooks.Endpoints.GetAsync(cancellationToken: cancellationToken).ConfigureAwait(false), "listWebhookEndpoints");

    /// <summary>Reads an endpoint.</summary>
    public async Task<WebhookEndpoint> GetEndpointAsync(string id, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Webhooks.Endpoints[id].GetAsync(cancellationToken: cancellationToken).ConfigureAwait(false), "getWebhookEndpoint");

    /// <summary>Changes an endpoint's URL, event types, description or enabled state.</summary>
    public async Task<WebhookEndpoint> UpdateEndpointAsync(string id, UpdateWebhookEndpointRequest request, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Webhooks.Endpoints[id].PatchAsync(request, cancellationToken: cancellationToken).ConfigureAwait(false), "updateWebhookEndpoint");

    /// <summary>Deletes an endpoint.</summary>
    public Task DeleteEndpointAsync(string id, CancellationToken cancellationToken = default) =>
        _api.V2.Webhooks.Endpoints[id].DeleteAsync(cancellationToken: cancellationToken);

    /// <summary>A new signing secret (in the answer); deliveries are signed with both for <paramref name="overlapHours"/> hours.</summary>
    public async Task<WebhookEndpointWithSecret> RotateSecretAsync(string id, int? overlapHours = null, CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.Webhooks.Endpoints.WithIdRotateSecret(id)
                .PostAsync(new RotateWebhookSecretRequest { OverlapHours = overlapHours }, cancellationToken: cancellationToken).ConfigureAwait(false),
            "rotateWebhookSecret");

    /// <summary>Stops signing with the old secret of a rotation now.</summary>
    public async Task<WebhookEndpoint> CloseOldSecretAsync(string id, CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.Webhooks.Endpoints.WithIdCloseOldSecret(id).PostAsync(new EmptyRequest(), cancellationToken: cancellationToken).ConfigureAwait(false),
            "closeOldWebhookSecret");

    /// <summary>Sends a <c>webhook.test</c> event to the endpoint.</summary>
    public async Task<WebhookDelivery> SendTestAsync(string id, CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.Webhooks.Endpoints.WithIdTest(id).PostAsync(new EmptyRequest(), cancellationToken: cancellationToken).ConfigureAwait(false),
            "sendWebhookTest");

    /// <summary>One page of the endpoint's deliveries with their attempts, newest first.</summary>
    public async Task<WebhookDeliveryPage> ListDeliveriesAsync(string id, int? limit = null, string? cursor = null, CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.Webhooks.Endpoints[id].Deliveries.GetAsync(
                c =>
                {
                    c.QueryParameters.Limit = limit;
                    c.QueryParameters.Cursor = cursor;
                },
                cancellationToken).ConfigureAwait(false),
            "listWebhookDeliveries");

    /// <summary>Delivers an event again (same <c>webhook-id</c>, so receivers can dedupe).</summary>
    public async Task<WebhookDelivery> ResendDeliveryAsync(string deliveryId, CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.Webhooks.Deliveries.WithIdResend(deliveryId).PostAsync(new EmptyRequest(), cancellationToken: cancellationToken).ConfigureAwait(false),
            "resendWebhookDelivery");
}
