using Keygate.Client.Generated;
using Keygate.Client.Generated.Models;
using Microsoft.Kiota.Abstractions;
using static Keygate.Client.Resources.Results;

namespace Keygate.Client.Resources;

/// <summary>Orders (scope <c>order:r</c> to read, <c>order:rw</c> to change).</summary>
public sealed class OrdersResource
{
    private readonly KeygateApiClient _api;

    internal OrdersResource(KeygateApiClient api) => _api = api;

    /// <summary>Reads an order.</summary>
    [KeygateOperation("getOrder")]
    public async Task<Order> GetAsync(string id, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Orders[id].GetAsync(cancellationToken: cancellationToken).ConfigureAwait(false), "getOrder");

    /// <summary>Cancels an order that is not fulfilled yet, releasing its stock.</summary>
    [KeygateOperation("cancelOrder")]
    public async Task<Order> CancelAsync(string id, KeygateRequestOptions? options = null, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Orders.WithIdCancel(id).PostAsync(new OrderActionRequest(), Requests.With<DefaultQueryParameters>(options), cancellationToken).ConfigureAwait(false), "cancelOrder");

    /// <summary>Marks an order fulfilled.</summary>
    [KeygateOperation("fulfilOrder")]
    public async Task<Order> FulfilAsync(string id, KeygateRequestOptions? options = null, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Orders.WithIdFulfil(id).PostAsync(new OrderActionRequest(), Requests.With<DefaultQueryParameters>(options), cancellationToken).ConfigureAwait(false), "fulfilOrder");
}
