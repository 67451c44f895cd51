using Keygate.Client.Generated;
using Keygate.Client.Generated.Models;
using static Keygate.Client.Resources.Results;

namespace Keygate.Client.Resources;

/// <summary>Carts and checkout (scope <c>order:rw</c>; <c>order:r</c> to read).</summary>
public sealed class CartsResource
{
    private readonly KeygateApiClient _api;

    internal CartsResource(KeygateApiClient api) => _api = api;

    /// <summary>Creates an empty cart in <paramref name="channel"/>, priced for <paramref name="customerId"/> when given.</summary>
    public async Task<Cart> CreateAsync(string channel, string? customerId = null, CancellationToken cancellationToken = default)
    {
        var request = new CreateCartRequest
        {
            Channel = channel,
            CustomerId = customerId is null ? null : new CreateCartRequest.CreateCartRequest_customerId { String = customerId },
        };
        return Required(await _api.V2.Carts.PostAsync(request, cancellationToken: cancellationToken).ConfigureAwait(false), "createCart");
    }

    /// <summary>Reads a cart with its lines and totals.</summary>
    public async Task<Cart> GetAsync(string id, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Carts[id].GetAsync(cancellationToken: cancellationToken).ConfigureAwait(false), "getCart");

    /// <summary>Adds <paramref name="quantity"/> of <paramref name="sku"/> to the cart.</summary>
    public async Task<Cart> AddItemAsync(string id, string sku, int quantity = 1, CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.Carts[id].Items.PostAsync(new AddCartItemRequest { Sku = sku, Qty = quantity }, cancellationToken: cancellationToken).ConfigureAwait(false),
            "addCartItem");

    /// <summary>Checks the cart out: reserves the stock and creates the order (emits <c>order.created</c>).</summary>
    public async Task<Order> CheckoutAsync(string id, CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.Carts.WithIdCheckout(id).PostAsync(new OrderActionRequest(), cancellationToken: cancellationToken).ConfigureAwait(false),
            "checkoutCart");
}
