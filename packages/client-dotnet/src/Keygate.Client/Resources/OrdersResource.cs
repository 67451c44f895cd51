using Keygate.Client.Generated;
using Keygate.Client.Generated.Models;
using static Keygate.Client.Resources.Results;

namespace Keygate.Client.Resources;

/// <summary>Orders (scope <c>order:r</c> to read, <c>order:rw</c> to change).</summary>
public sealed class OrdersResource
{
    private readonly KeygateApiClient _api;

    internal OrdersResource(KeygateApiClient api) => _api = api;

    /// <summary>Reads an order.</summary>
    public async Task<Order> GetAsync(string id, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Orders[id].GetAsync(cancellationToken: cancellationToken).ConfigureAwait(false), "getOrder");

    /// <summary>Cancels an order that is not fulfilled yet, releasing its stock.</summary>
    public async Task<Order> CancelAsync(string id, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Orders.WithIdCancel(id).PostAsync(new OrderActionRequest(), cancellationToken: cancellationToken).ConfigureAwait(false), "cancelOrder");

    /// <summary>Marks an order fulfilled.</summary>
    public async Task<Order> FulfilAsync(string id, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Orders.WithIdFulfil(id).PostAsync(new OrderActionRequest(), cancellationToken: cancellationToken).ConfigureAwait(false), "fulfilOrder");
}
