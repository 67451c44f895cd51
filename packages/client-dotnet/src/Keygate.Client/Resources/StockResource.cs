using Keygate.Client.Generated;
using Keygate.Client.Generated.Models;
using Microsoft.Kiota.Abstractions;
using static Keygate.Client.Resources.Results;

namespace Keygate.Client.Resources;

/// <summary>Stock levels (scope <c>stock:r</c>/<c>stock:rw</c>); changes emit <c>stock.*</c> webhook events.</summary>
public sealed class StockResource
{
    private readonly KeygateApiClient _api;

    internal StockResource(KeygateApiClient api) => _api = api;

    /// <summary>Reads the stock of a product.</summary>
    [KeygateOperation("getStock")]
    public async Task<Stock> GetAsync(string sku, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Stock[sku].GetAsync(cancellationToken: cancellationToken).ConfigureAwait(false), "getStock");

    /// <summary>Sets the units on hand (idempotent, so retried after a 429).</summary>
    [KeygateOperation("setStock")]
    public async Task<Stock> SetAsync(string sku, int onHand, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Stock[sku].PutAsync(new SetStockRequest { OnHand = onHand }, cancellationToken: cancellationToken).ConfigureAwait(false), "setStock");

    /// <summary>Adds <paramref name="delta"/> (negative to remove) to the units on hand.</summary>
    [KeygateOperation("adjustStock")]
    public async Task<Stock> AdjustAsync(string sku, int delta, KeygateRequestOptions? options = null, CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.Stock.WithSkuAdjust(sku).PostAsync(new AdjustStockRequest { Delta = delta }, Requests.With<DefaultQueryParameters>(options), cancellationToken).ConfigureAwait(false),
            "adjustStock");
}
