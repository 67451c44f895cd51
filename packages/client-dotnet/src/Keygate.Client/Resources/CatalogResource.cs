using System.Text.Json;
using Keygate.Client.Generated;
using Keygate.Client.Generated.Models;
using Keygate.Client.Generated.V2.Catalog.Products;
using Microsoft.Kiota.Abstractions;
using static Keygate.Client.Resources.Results;

namespace Keygate.Client.Resources;

/// <summary>
/// The catalogue (scope <c>article:r</c>): channels, products with a channel's prices and images, GraphQL; setting
/// images needs <c>article:rw</c>.
/// </summary>
public sealed class CatalogResource
{
    /// <summary>The request header naming the sales channel whose prices and currency a catalogue call uses.</summary>
    public const string ChannelHeader = "X-Channel";

    private readonly KeygateApiClient _api;
    private readonly IRequestAdapter _adapter;

    internal CatalogResource(KeygateApiClient api, IRequestAdapter adapter)
    {
        _api = api;
        _adapter = adapter;
    }

    /// <summary>The sales channels, with their currency and country.</summary>
    [KeygateOperation("listChannels")]
    public async Task<ChannelList> ListChannelsAsync(CancellationToken cancellationToken = default) =>
        Required(await _api.V2.Channels.GetAsync(cancellationToken: cancellationToken).ConfigureAwait(false), "listChannels");

    /// <summary>
    /// One page of products with their price in <paramref name="channel"/>; with <paramref name="customer"/>, the
    /// price that customer pays (tier and agreements applied); <paramref name="query"/> searches SKU and name.
    /// </summary>
    [KeygateOperation("listProducts")]
    public async Task<ProductPage> ListProductsAsync(
        string channel,
        string? customer = null,
        bool? inStock = null,
        int? limit = null,
        string? cursor = null,
        string? query = null,
        CancellationToken cancellationToken = default)
    {
        ArgumentException.ThrowIfNullOrEmpty(channel);
        var page = await _api.V2.Catalog.Products.GetAsync(
            c =>
            {
                c.Headers.Add(ChannelHeader, channel);
                c.QueryParameters.Customer = customer;
                c.QueryParameters.InStock = inStock switch
                {
                    true => GetInStockQueryParameterType.True,
                    false => GetInStockQueryParameterType.False,
                    null => null,
                };
                c.QueryParameters.Limit = limit;
                c.QueryParameters.Cursor = cursor;
                c.QueryParameters.Q = query;
            },
            cancellationToken).ConfigureAwait(false);
        return Required(page, "listProducts");
    }

    /// <summary>
    /// Every product of <paramref name="channel"/> (filtered as <see cref="ListProductsAsync"/> does), fetched
    /// <paramref name="pageSize"/> at a time as the caller reads on: <c>await foreach (var p in
    /// keygate.Catalog.ListProductsAutoPagingAsync("WEB_DE"))</c>. Stops after the last page; each page is retried
    /// like any call; cancelling the token stops the walk.
    /// </summary>
    public IAsyncEnumerable<CatalogProduct> ListProductsAutoPagingAsync(
        string channel,
        string? customer = null,
        bool? inStock = null,
        int? pageSize = null,
        string? query = null,
        CancellationToken cancellationToken = default)
    {
        ArgumentException.ThrowIfNullOrEmpty(channel);
        return AutoPaging.WalkAsync(
            (cursor, ct) => ListProductsAsync(channel, customer, inStock, pageSize, cursor, query, ct),
            page => page.Data,
            page => page.NextCursor,
            cancellationToken);
    }

    /// <summary>One product with its price in <paramref name="channel"/> (for <paramref name="customer"/> when given).</summary>
    [KeygateOperation("getProduct")]
    public async Task<ProductDetail> GetProductAsync(string sku, string channel, string? customer = null, CancellationToken cancellationToken = default)
    {
        ArgumentException.ThrowIfNullOrEmpty(channel);
        var product = await _api.V2.Catalog.Products[sku].GetAsync(
            c =>
            {
                c.Headers.Add(ChannelHeader, channel);
                c.QueryParameters.Customer = customer;
            },
            cancellationToken).ConfigureAwait(false);
        return Required(product, "getProduct");
    }

    /// <summary>
    /// Replaces the ordered images of a product (scope <c>article:rw</c>): each an <c>https</c> URL or a path under
    /// <c>/v2/media/</c>, with alt text (<c>""</c> only for a decorative image) and its size in pixels; an empty list
    /// leaves the product without images. Emits <c>product.updated</c> when the list differs from the one shown.
    /// </summary>
    [KeygateOperation("setProductImages")]
    public async Task<ProductImages> SetProductImagesAsync(
        string sku,
        IEnumerable<SetProductImagesRequest_images> images,
        KeygateRequestOptions? options = null,
        CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(images);
        var body = new SetProductImagesRequest { Images = images.ToList() };
        var result = await _api.V2.Catalog.Products[sku].Images
            .PutAsync(body, Requests.With<DefaultQueryParameters>(options), cancellationToken).ConfigureAwait(false);
        return Required(result, "setProductImages");
    }

    /// <summary>
    /// The bytes of a generated product image (an SVG), from the path the catalogue's <c>url</c> names after
    /// <c>/v2/media/products/</c>: <paramref name="sku"/> and <paramref name="file"/>. The same URL always answers
    /// the same bytes, so a copy can be kept for good.
    /// </summary>
    [KeygateOperation("getProductImage")]
    public async Task<byte[]> GetProductImageAsync(string sku, string file, CancellationToken cancellationToken = default)
    {
        ArgumentException.ThrowIfNullOrEmpty(file);
        var request = _api.V2.Media.Products[sku][file].ToGetRequestInformation();
        request.Headers.TryAdd("Accept", "image/svg+xml");
        var stream = await _adapter.SendPrimitiveAsync<Stream>(request, cancellationToken: cancellationToken).ConfigureAwait(false);
        await using (Required(stream, "getProductImage").ConfigureAwait(false))
        {
            using var bytes = new MemoryStream();
            await stream!.CopyToAsync(bytes, cancellationToken).ConfigureAwait(false);
            return bytes.ToArray();
        }
    }

    /// <summary>
    /// Runs a GraphQL query (e.g. <c>{ products(channel: "de") { sku price(tier: "gold") { amount } } }</c>) and
    /// returns the response document (<c>data</c> and, when some fields failed, <c>errors</c>). With
    /// <paramref name="useGet"/> the query goes in the URL (GraphQL over HTTP GET, queries only), which caches and
    /// is retried like any GET; otherwise it is POSTed.
    /// </summary>
    [KeygateOperation("queryGraphql")]
    [KeygateOperation("queryGraphqlGet")]
    public async Task<JsonDocument> QueryGraphqlAsync(
        string query,
        IReadOnlyDictionary<string, object?>? variables = null,
        string? operationName = null,
        bool useGet = false,
        CancellationToken cancellationToken = default)
    {
        ArgumentException.ThrowIfNullOrEmpty(query);
        var request = useGet ? GraphqlGetRequest(query, variables, operationName) : GraphqlPostRequest(query, variables, operationName);
        var stream = await _adapter.SendPrimitiveAsync<Stream>(request, cancellationToken: cancellationToken).ConfigureAwait(false);
        await using (Required(stream, "queryGraphql").ConfigureAwait(false))
        {
            return await JsonDocument.ParseAsync(stream!, cancellationToken: cancellationToken).ConfigureAwait(false);
        }
    }

    private RequestInformation GraphqlGetRequest(string query, IReadOnlyDictionary<string, object?>? variables, string? operationName) =>
        _api.V2.Graphql.ToGetRequestInformation(c =>
        {
            c.QueryParameters.Query = query;
            c.QueryParameters.Variables = variables is null ? null : JsonSerializer.Serialize(variables);
            c.QueryParameters.OperationName = operationName;
        });

    private RequestInformation GraphqlPostRequest(string query, IReadOnlyDictionary<string, object?>? variables, string? operationName)
    {
        var request = _api.V2.Graphql.ToPostRequestInformation(new GraphqlRequest());
        // GraphQL variables are free-form JSON, which the generated model can only hold as untyped nodes.
        var body = JsonSerializer.SerializeToUtf8Bytes(new Dictionary<string, object?>
        {
            ["query"] = query,
            ["variables"] = variables,
            ["operationName"] = operationName,
        });
        request.SetStreamContent(new MemoryStream(body), "application/json");
        return request;
    }
}
