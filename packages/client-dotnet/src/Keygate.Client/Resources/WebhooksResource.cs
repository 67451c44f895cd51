using Keygate.Client.Generated;
using Keygate.Client.Generated.Models;
using Microsoft.Kiota.Abstractions;
using static Keygate.Client.Resources.Results;

namespace Keygate.Client.Resources;

/// <summary>Webhook endpoints and deliveries (scope <c>webhook:rw</c>; <c>webhook:r</c> to read).</summary>
public sealed class WebhooksResource
{
    private readonly KeygateApiClient _api;

    internal WebhooksResource(KeygateApiClient api) => _api = api;

    /// <summary>The event types an endpoint can subscribe to.</summary>
    [KeygateOperation("listWebhookEventTypes")]
    public async Task<EventTypeList> ListEventTypesAsync(CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Webhooks.EventTypes.GetAsync(cancellationToken: cancellationToken).ConfigureAwait(false), "listWebhookEventTypes");

    /// <summary>Creates an endpoint for <paramref name="url"/>; the answer holds its signing secret (<c>whsec_…</c>), shown this once.</summary>
    [KeygateOperation("createWebhookEndpoint")]
    public async Task<WebhookEndpointWithSecret> CreateEndpointAsync(
        string url,
        IEnumerable<string>? eventTypes = null,
        string? description = null,
        KeygateRequestOptions? options = null,
        CancellationToken cancellationToken = default)
    {
        var request = new CreateWebhookEndpointRequest
        {
            Url = url,
            Description = description,
            EventTypes = eventTypes is null ? null : [.. eventTypes],
        };
        return Required(await _api.V2.Webhooks.Endpoints.PostAsync(request, Requests.With<DefaultQueryParameters>(options), cancellationToken).ConfigureAwait(false), "createWebhookEndpoint");
    }

    /// <summary>Lists the endpoints (without their secrets).</summary>
    [KeygateOperation("listWebhookEndpoints")]
    public async Task<WebhookEndpointList> ListEndpointsAsync(CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Webhooks.Endpoints.GetAsync(cancellationToken: cancellationToken).ConfigureAwait(false), "listWebhookEndpoints");

    /// <summary>Reads an endpoint.</summary>
    [KeygateOperation("getWebhookEndpoint")]
    public async Task<WebhookEndpoint> GetEndpointAsync(string id, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Webhooks.Endpoints[id].GetAsync(cancellationToken: cancellationToken).ConfigureAwait(false), "getWebhookEndpoint");

    /// <summary>Changes an endpoint's URL, event types, description or enabled state.</summary>
    [KeygateOperation("updateWebhookEndpoint")]
    public async Task<WebhookEndpoint> UpdateEndpointAsync(string id, UpdateWebhookEndpointRequest request, KeygateRequestOptions? options = null, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Webhooks.Endpoints[id].PatchAsync(request, Requests.With<DefaultQueryParameters>(options), cancellationToken).ConfigureAwait(false), "updateWebhookEndpoint");

    /// <summary>Deletes an endpoint.</summary>
    [KeygateOperation("deleteWebhookEndpoint")]
    public Task DeleteEndpointAsync(string id, CancellationToken cancellationToken = default) =>
        _api.V2.Webhooks.Endpoints[id].DeleteAsync(cancellationToken: cancellationToken);

    /// <summary>A new signing secret (in the answer); deliveries are signed with both for <paramref name="overlapHours"/> hours.</summary>
    [KeygateOperation("rotateWebhookSecret")]
    public async Task<WebhookEndpointWithSecret> RotateSecretAsync(string id, int? overlapHours = null, KeygateRequestOptions? options = null, CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.Webhooks.Endpoints.WithIdRotateSecret(id)
                .PostAsync(new RotateWebhookSecretRequest { OverlapHours = overlapHours }, Requests.With<DefaultQueryParameters>(options), cancellationToken).ConfigureAwait(false),
            "rotateWebhookSecret");

    /// <summary>Stops signing with the old secret of a rotation now.</summary>
    [KeygateOperation("closeOldWebhookSecret")]
    public async Task<WebhookEndpoint> CloseOldSecretAsync(string id, KeygateRequestOptions? options = null, CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.Webhooks.Endpoints.WithIdCloseOldSecret(id).PostAsync(new EmptyRequest(), Requests.With<DefaultQueryParameters>(options), cancellationToken).ConfigureAwait(false),
            "closeOldWebhookSecret");

    /// <summary>Sends a <c>webhook.test</c> event to the endpoint.</summary>
    [KeygateOperation("sendWebhookTest")]
    public async Task<WebhookDelivery> SendTestAsync(string id, KeygateRequestOptions? options = null, CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.Webhooks.Endpoints.WithIdTest(id).PostAsync(new EmptyRequest(), Requests.With<DefaultQueryParameters>(options), cancellationToken).ConfigureAwait(false),
            "sendWebhookTest");

    /// <summary>One page of the endpoint's deliveries with their attempts, newest first.</summary>
    [KeygateOperation("listWebhookDeliveries")]
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
    [KeygateOperation("resendWebhookDelivery")]
    public async Task<WebhookDelivery> ResendDeliveryAsync(string deliveryId, KeygateRequestOptions? options = null, CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.Webhooks.Deliveries.WithIdResend(deliveryId).PostAsync(new EmptyRequest(), Requests.With<DefaultQueryParameters>(options), cancellationToken).ConfigureAwait(false),
            "resendWebhookDelivery");

    /// <summary>Every delivery of the endpoint with its attempts, newest first, fetched <paramref name="pageSize"/> at a time as the caller reads on.</summary>
    public IAsyncEnumerable<WebhookDeliveryPage_data> ListDeliveriesAutoPagingAsync(string id, int? pageSize = null, CancellationToken cancellationToken = default) =>
        AutoPaging.WalkAsync(
            (cursor, ct) => ListDeliveriesAsync(id, pageSize, cursor, ct),
            page => page.Data,
            page => page.NextCursor,
            cancellationToken);

    /// <summary>
    /// Sandbox (test keys only): makes a real change in the test environment that emits an event of
    /// <paramref name="eventType"/> (e.g. <c>order.created</c>) to the subscribed endpoints, and returns its id.
    /// </summary>
    [KeygateOperation("triggerWebhookEvent")]
    public async Task<TriggeredEvent> TriggerEventAsync(string eventType, KeygateRequestOptions? options = null, CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.Webhooks.EventsTrigger.PostAsync(new TriggerEventRequest { Type = eventType }, Requests.With<DefaultQueryParameters>(options), cancellationToken)
                .ConfigureAwait(false),
            "triggerWebhookEvent");

    /// <summary>
    /// Sandbox (test keys only): the test environment's events as they are recorded, after
    /// <paramref name="lastEventId"/> when given (none twice). Runs until the token is cancelled or the gateway ends
    /// the stream (the key revoked, expired or its secret closed).
    /// </summary>
    [KeygateOperation("streamWebhookEvents")]
    public async IAsyncEnumerable<KeygateStreamEvent> StreamEventsAsync(
        string? lastEventId = null,
        [System.Runtime.CompilerServices.EnumeratorCancellation] CancellationToken cancellationToken = default)
    {
        var stream = await _api.V2.Webhooks.EventsStream.GetAsync(
            c =>
            {
                if (lastEventId is not null) c.Headers.Add("Last-Event-ID", lastEventId);
            },
            cancellationToken).ConfigureAwait(false);
        await using (Required(stream, "streamWebhookEvents").ConfigureAwait(false))
        {
            await foreach (var item in EventStreamReader.ReadAsync(stream!, cancellationToken).ConfigureAwait(false)) yield return item;
        }
    }
}
