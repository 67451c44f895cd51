using Keygate.Client.Generated;
using Keygate.Client.Generated.Models;
using Microsoft.Kiota.Abstractions;
using static Keygate.Client.Resources.Results;

namespace Keygate.Client.Resources;

/// <summary>Carts and checkout (scope <c>order:rw</c>; <c>order:r</c> to read).</summary>
public sealed class CartsResource
{
    private readonly KeygateApiClient _api;

    internal CartsResource(KeygateApiClient api) => _api = api;

    /// <summary>Creates an empty cart in <paramref name="channel"/>, priced for <paramref name="customerId"/> when given.</summary>
    [KeygateOperation("createCart")]
    public async Task<Cart> CreateAsync(string channel, string? customerId = null, KeygateRequestOptions? options = null, CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.Carts.PostAsync(new CreateCartRequest { Channel = channel, CustomerId = customerId }, Requests.With<DefaultQueryParameters>(options), cancellationToken)
                .ConfigureAwait(false),
            "createCart");

    /// <summary>Reads a cart with its lines and totals.</summary>
    [KeygateOperation("getCart")]
    public async Task<Cart> GetAsync(string id, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Carts[id].GetAsync(cancellationToken: cancellationToken).ConfigureAwait(false), "getCart");

    /// <summary>Adds <paramref name="quantity"/> of <paramref name="sku"/> to the cart.</summary>
    [KeygateOperation("addCartItem")]
    public async Task<Cart> AddItemAsync(string id, string sku, int quantity = 1, KeygateRequestOptions? options = null, CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.Carts[id].Items.PostAsync(new AddCartItemRequest { Sku = sku, Qty = quantity }, Requests.With<DefaultQueryParameters>(options), cancellationToken)
                .ConfigureAwait(false),
            "addCartItem");

    /// <summary>Sets the line of <paramref name="sku"/> to <paramref name="quantity"/> units (1-999); refused with the available quantity when stock is short.</summary>
    [KeygateOperation("updateCartItem")]
    public async Task<Cart> UpdateItemAsync(string id, string sku, int quantity, KeygateRequestOptions? options = null, CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.Carts[id].Items[sku].PatchAsync(new UpdateCartItemRequest { Qty = quantity }, Requests.With<DefaultQueryParameters>(options), cancellationToken)
                .ConfigureAwait(false),
            "updateCartItem");

    /// <summary>Removes the line of <paramref name="sku"/> and returns the cart priced without it.</summary>
    [KeygateOperation("removeCartItem")]
    public async Task<Cart> RemoveItemAsync(string id, string sku, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Carts[id].Items[sku].DeleteAsync(cancellationToken: cancellationToken).ConfigureAwait(false), "removeCartItem");

    /// <summary>
    /// Checks the cart out: reserves the stock and creates the order (emits <c>order.created</c>). Safe to retry:
    /// the call carries an <c>Idempotency-Key</c>, so a retry after a lost answer returns the same order.
    /// </summary>
    [KeygateOperation("checkoutCart")]
    public async Task<Order> CheckoutAsync(string id, KeygateRequestOptions? options = null, CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.Carts.WithIdCheckout(id).PostAsync(new OrderActionRequest(), Requests.With<DefaultQueryParameters>(options), cancellationToken).ConfigureAwait(false),
            "checkoutCart");
}
