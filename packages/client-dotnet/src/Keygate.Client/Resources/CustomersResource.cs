using Keygate.Client.Generated;
using Keygate.Client.Generated.Models;
using Microsoft.Kiota.Abstractions;
using static Keygate.Client.Resources.Results;

namespace Keygate.Client.Resources;

/// <summary>One product's price for a customer in one channel, as <see cref="CustomersResource.ListPricesAutoPagingAsync"/> yields it.</summary>
/// <param name="Channel">The channel code, e.g. <c>WEB_DE</c>.</param>
/// <param name="Currency">The channel's currency; amounts are in its minor units.</param>
/// <param name="PricesIncludeVat">Whether the channel's stored prices are gross.</param>
/// <param name="Price">The product, its price level and amounts at quantity 1.</param>
public sealed record CustomerChannelPrice(string Channel, string? Currency, bool? PricesIncludeVat, CustomerPricing_effectivePrices_prices Price);

/// <summary>Customers (scope <c>customer:r</c>/<c>customer:rw</c>) and their pricing (<c>pricing:r</c>).</summary>
public sealed class CustomersResource
{
    private readonly KeygateApiClient _api;

    internal CustomersResource(KeygateApiClient api) => _api = api;

    /// <summary>Creates a customer.</summary>
    [KeygateOperation("createCustomer")]
    public async Task<Customer> CreateAsync(CreateCustomerRequest request, KeygateRequestOptions? options = null, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Customers.PostAsync(request, Requests.With<DefaultQueryParameters>(options), cancellationToken).ConfigureAwait(false), "createCustomer");

    /// <summary>Reads a customer.</summary>
    [KeygateOperation("getCustomer")]
    public async Task<Customer> GetAsync(string id, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Customers[id].GetAsync(cancellationToken: cancellationToken).ConfigureAwait(false), "getCustomer");

    /// <summary>Changes a customer's name or tier.</summary>
    [KeygateOperation("updateCustomer")]
    public async Task<Customer> UpdateAsync(string id, UpdateCustomerRequest request, KeygateRequestOptions? options = null, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Customers[id].PatchAsync(request, Requests.With<DefaultQueryParameters>(options), cancellationToken).ConfigureAwait(false), "updateCustomer");

    /// <summary>
    /// One page of the customer's pricing: their tier, the agreements and, per channel, the prices they pay for the
    /// page's products (those with agreement or tier prices, by SKU).
    /// </summary>
    [KeygateOperation("getCustomerPricing")]
    public async Task<CustomerPricing> GetPricingAsync(string id, int? limit = null, string? cursor = null, CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.Customers[id].Pricing.GetAsync(
                c =>
                {
                    c.QueryParameters.Limit = limit;
                    c.QueryParameters.Cursor = cursor;
                },
                cancellationToken).ConfigureAwait(false),
            "getCustomerPricing");

    /// <summary>
    /// Each page of the customer's pricing in turn, whole (its agreements and per-channel prices belong together),
    /// as the TypeScript and PHP clients walk it; fetched when the caller reads on, until the last page.
    /// </summary>
    public IAsyncEnumerable<CustomerPricing> GetPricingAutoPagingAsync(string id, int? pageSize = null, CancellationToken cancellationToken = default) =>
        AutoPaging.WalkAsync<CustomerPricing, CustomerPricing>(
            (cursor, ct) => GetPricingAsync(id, pageSize, cursor, ct),
            page => [page],
            page => page.NextCursor,
            cancellationToken);

    /// <summary>
    /// Every price the customer pays, one per product and channel, fetched <paramref name="pageSize"/> products at a
    /// time as the caller reads on. Stops after the last page; cancelling the token stops the walk.
    /// </summary>
    public IAsyncEnumerable<CustomerChannelPrice> ListPricesAutoPagingAsync(string id, int? pageSize = null, CancellationToken cancellationToken = default) =>
        AutoPaging.WalkAsync(
            (cursor, ct) => GetPricingAsync(id, pageSize, cursor, ct),
            page => (page.EffectivePrices ?? []).SelectMany(channel =>
                (channel.Prices ?? []).Select(price => new CustomerChannelPrice(channel.Channel ?? "", channel.Currency, channel.PricesIncludeVat, price))),
            page => page.NextCursor,
            cancellationToken);
}
