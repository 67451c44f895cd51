using Keygate.Client.Generated;
using Keygate.Client.Generated.Models;
using static Keygate.Client.Resources.Results;

namespace Keygate.Client.Resources;

/// <summary>Stock levels (scope <c>stock:r</c>/<c>stock:rw</c>); changes emit <c>stock.*</c> webhook events.</summary>
public sealed class StockResource
{
    private readonly KeygateApiClient _api;

    internal StockResource(KeygateApiClient api) => _api = api;

    /// <summary>Reads the stock of a product.</summary>
    public async Task<Stock> GetAsync(string sku, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Stock[sku].GetAsync(cancellationToken: cancellationToken).ConfigureAwait(false), "getStock");

    /// <summary>Sets the units on hand (idempotent, so retried after a 429).</summary>
    public async Task<Stock> SetAsync(string sku, int onHand, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Stock[sku].PutAsync(new SetStockRequest { OnHand = onHand }, cancellationToken: cancellationToken).ConfigureAwait(false), "setStock");

    /// <summary>Adds <paramref name="delta"/> (negative to remove) to the units on hand.</summary>
    public async Task<Stock> AdjustAsync(string sku, int delta, CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.Stock.WithSkuAdjust(sku).PostAsync(new AdjustStockRequest { Delta = delta }, cancellationToken: cancellationToken).ConfigureAwait(false),
            "adjustStock");
}
