using Keygate.Client.Generated;
using Keygate.Client.Generated.Models;
using static Keygate.Client.Resources.Results;

namespace Keygate.Client.Resources;

/// <summary>Customers (scope <c>customer:r</c>/<c>customer:rw</c>) and their pricing (<c>pricing:r</c>).</summary>
public sealed class CustomersResource
{
    private readonly KeygateApiClient _api;

    internal CustomersResource(KeygateApiClient api) => _api = api;

    /// <summary>Creates a customer.</summary>
    public async Task<Customer> CreateAsync(CreateCustomerRequest request, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Customers.PostAsync(request, cancellationToken: cancellationToken).ConfigureAwait(false), "createCustomer");

    /// <summary>Reads a customer.</summary>
    public async Task<Customer> GetAsync(string id, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Customers[id].GetAsync(cancellationToken: cancellationToken).ConfigureAwait(false), "getCustomer");

    /// <summary>Changes a customer's name or tier.</summary>
    public async Task<Customer> UpdateAsync(string id, UpdateCustomerRequest request, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Customers[id].PatchAsync(request, cancellationToken: cancellationToken).ConfigureAwait(false), "updateCustomer");

    /// <summary>The customer's tier, agreements and the prices they pay.</summary>
    public async Task<CustomerPricing> GetPricingAsync(string id, CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Customers[id].Pricing.GetAsync(cancellationToken: cancellationToken).ConfigureAwait(false), "getCustomerPricing");
}
