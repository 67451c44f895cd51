using Keygate.Client.Generated;
using Keygate.Client.Resources;
using Microsoft.Kiota.Abstractions.Authentication;
using Microsoft.Kiota.Http.HttpClientLibrary;

namespace Keygate.Client;

/// <summary>
/// The keygate API client: one object per API key, with a method per operation grouped by resource
/// (<see cref="Keys"/>, <see cref="Catalog"/>, <see cref="Carts"/>, …) and the full Kiota-generated surface in
/// <see cref="Api"/>. Every error answer is thrown as <see cref="KeygateProblemException"/>; calls are
/// retried after a 429, a 503 or a connection error (POST and PATCH under one Idempotency-Key, also after 409
/// IDEMPOTENCY_KEY_IN_USE; a spent quota or balance only after a short Retry-After) as
/// <see cref="KeygateClientOptions.Retry"/> says.
/// </summary>
public sealed class KeygateClient : IDisposable
{
    private readonly KeygateHandler _handler;
    private readonly HttpClient _pipeline;
    private readonly HttpClient? _owned;

    /// <summary>
    /// Creates a client that sends through <paramref name="httpClient"/> (its handlers, proxy and timeout apply to
    /// each attempt). The caller owns <paramref name="httpClient"/>; disposing this client does not dispose it.
    /// </summary>
    public KeygateClient(HttpClient httpClient, KeygateClientOptions options)
        : this(httpClient, options, ownsHttpClient: false)
    {
    }

    /// <summary>Creates a client with its own HttpClient for <paramref name="options"/>' BaseUrl.</summary>
    public KeygateClient(KeygateClientOptions options)
        : this(new HttpClient(), options, ownsHttpClient: true)
    {
    }

    private KeygateClient(HttpClient httpClient, KeygateClientOptions options, bool ownsHttpClient)
    {
        ArgumentNullException.ThrowIfNull(httpClient);
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        var baseUrl = options.BaseUrl ?? httpClient.BaseAddress
            ?? throw new ArgumentException("keygate client: BaseUrl is required (or an HttpClient with a BaseAddress)", nameof(options));
        _owned = ownsHttpClient ? httpClient : null;
        _handler = new KeygateHandler(options, new HttpClientForwarder(httpClient));
        // Each attempt runs under the caller's HttpClient timeout; this outer client must not cut retries short.
        _pipeline = new HttpClient(_handler, disposeHandler: true) { Timeout = Timeout.InfiniteTimeSpan };
        var adapter = new HttpClientRequestAdapter(new AnonymousAuthenticationProvider(), httpClient: _pipeline)
        {
            BaseUrl = baseUrl.GetLeftPart(UriPartial.Authority) + baseUrl.AbsolutePath.TrimEnd('/'),
        };
        Api = new KeygateApiClient(adapter);
        Keys = new KeysResource(Api);
        Catalog = new CatalogResource(Api, adapter);
        Carts = new CartsResource(Api);
        Orders = new OrdersResource(Api);
        Customers = new CustomersResource(Api);
        Pricing = new PricingResource(Api);
        Stock = new StockResource(Api);
        Webhooks = new WebhooksResource(Api);
        Document = new DocumentResource(Api, adapter);
        Plans = new PlansResource(Api);
        Identities = new IdentitiesResource(Api);
        Alerts = new AlertsResource(Api);
    }

    /// <summary>Every operation of the OpenAPI document as Kiota generates it, e.g. <c>Api.V2.Channels.GetAsync()</c>.</summary>
    public KeygateApiClient Api { get; }

    /// <summary>The rate-limit state of the latest response that announced one (null before any).</summary>
    public RateLimitState? RateLimit => _handler.LatestRateLimit;

    /// <summary>API keys: list, create, rotate, close the old secret, scopes, revoke, usage, activity, logs.</summary>
    public KeysResource Keys { get; }

    /// <summary>Channels, the catalogue for a channel (and a customer's prices), GraphQL.</summary>
    public CatalogResource Catalog { get; }

    /// <summary>Carts, their items, checkout.</summary>
    public CartsResource Carts { get; }

    /// <summary>Orders: read, cancel, fulfil.</summary>
    public OrdersResource Orders { get; }

    /// <summary>Customers and their pricing.</summary>
    public CustomersResource Customers { get; }

    /// <summary>Prices and VAT rates.</summary>
    public PricingResource Pricing { get; }

    /// <summary>Stock levels.</summary>
    public StockResource Stock { get; }

    /// <summary>Webhook endpoints, their secrets and deliveries.</summary>
    public WebhooksResource Webhooks { get; }

    /// <summary>Plans: named limits, quotas and a credits refill shared by the keys and identities on them.</summary>
    public PlansResource Plans { get; }

    /// <summary>Identities (your customers), their credits and usage per period, and the billing export.</summary>
    public IdentitiesResource Identities { get; }

    /// <summary>Alert endpoints: where the gateway sends its signed alerts, their deliveries, and the alert stream.</summary>
    public AlertsResource Alerts { get; }

    /// <summary>The API's OpenAPI document.</summary>
    public DocumentResource Document { get; }

    /// <summary>Releases the client's own pipeline (not an HttpClient the caller passed in).</summary>
    public void Dispose()
    {
        _pipeline.Dispose();
        _owned?.Dispose();
    }
}
