using System.Text.Json;
using Keygate.Client.Generated;
using Microsoft.Kiota.Abstractions;
using static Keygate.Client.Resources.Results;

namespace Keygate.Client.Resources;

/// <summary>The API's own OpenAPI document (public: no scope needed).</summary>
public sealed class DocumentResource
{
    private readonly KeygateApiClient _api;
    private readonly IRequestAdapter _adapter;

    internal DocumentResource(KeygateApiClient api, IRequestAdapter adapter)
    {
        _api = api;
        _adapter = adapter;
    }

    /// <summary>The OpenAPI 3.1 document this API is described by, as JSON.</summary>
    [KeygateOperation("getOpenApiDocument")]
    public async Task<JsonDocument> GetAsync(CancellationToken cancellationToken = default)
    {
        // The generated model keeps only the document's top level; the raw JSON is what a tool wants.
        var request = _api.V2.OpenapiJson.ToGetRequestInformation();
        var stream = await _adapter.SendPrimitiveAsync<Stream>(request, cancellationToken: cancellationToken).ConfigureAwait(false);
        await using (Required(stream, "getOpenApiDocument").ConfigureAwait(false))
        {
            return await JsonDocument.ParseAsync(stream!, cancellationToken: cancellationToken).ConfigureAwait(false);
        }
    }
}
