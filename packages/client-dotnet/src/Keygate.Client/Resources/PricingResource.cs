using Keygate.Client.Generated;
using Keygate.Client.Generated.Models;
using Microsoft.Kiota.Abstractions;
using static Keygate.Client.Resources.Results;

namespace Keygate.Client.Resources;

/// <summary>Prices and VAT rates (scope <c>pricing:r</c>/<c>pricing:rw</c>).</summary>
public sealed class PricingResource
{
    private readonly KeygateApiClient _api;

    internal PricingResource(KeygateApiClient api) => _api = api;

    /// <summary>Creates a price (list, tier or customer level).</summary>
    [KeygateOperation("createPrice")]
    public async Task<Price> CreatePriceAsync(CreatePriceRequest request, KeygateRequestOptions? options = null, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Prices.PostAsync(request, Requests.With<DefaultQueryParameters>(options), cancellationToken).ConfigureAwait(false), "createPrice");

    /// <summary>Reads a price.</summary>
    [KeygateOperation("getPrice")]
    public async Task<Price> GetPriceAsync(string id, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Prices[id].GetAsync(cancellationToken: cancellationToken).ConfigureAwait(false), "getPrice");

    /// <summary>Replaces a price's amount, minimum quantity and validity.</summary>
    [KeygateOperation("replacePrice")]
    public async Task<Price> ReplacePriceAsync(string id, ReplacePriceRequest request, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Prices[id].PutAsync(request, cancellationToken: cancellationToken).ConfigureAwait(false), "replacePrice");

    /// <summary>Deletes a price.</summary>
    [KeygateOperation("deletePrice")]
    public Task DeletePriceAsync(string id, CancellationToken cancellationToken = default) =>
        _api.V2.Prices[id].DeleteAsync(cancellationToken: cancellationToken);

    /// <summary>Sets the VAT rate (basis points) of a tax class in a country.</summary>
    [KeygateOperation("setVatRate")]
    public async Task<VatRate> SetVatRateAsync(string country, string taxClass, int rateBasisPoints, CancellationToken cancellationToken = default) =>
        Required(
            await _api.V2.VatRates[country][taxClass].PutAsync(new SetVatRateRequest { RateBp = rateBasisPoints }, cancellationToken: cancellationToken).ConfigureAwait(false),
            "setVatRate");
}
