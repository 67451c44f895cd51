using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace Keygate.Client;

/// <summary>Registers <see cref="KeygateClient"/> with <c>IHttpClientFactory</c>.</summary>
public static class KeygateServiceCollectionExtensions
{
    /// <summary>The name of the HttpClient the factory builds for the keygate client.</summary>
    public const string HttpClientName = "Keygate";

    /// <summary>
    /// Adds a transient <see cref="KeygateClient"/> whose HttpClient comes from <c>IHttpClientFactory</c> (named
    /// <see cref="HttpClientName"/>: add handlers or a proxy to the returned builder), configured by
    /// <paramref name="configure"/> (e.g. from configuration: base URL and API key).
    /// </summary>
    public static IHttpClientBuilder AddKeygateClient(this IServiceCollection services, Action<KeygateClientOptions> configure)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(configure);
        services.AddOptions<KeygateClientOptions>().Configure(configure);
        services.AddTransient(provider =>
            new KeygateClient(
                provider.GetRequiredService<IHttpClientFactory>().CreateClient(HttpClientName),
                provider.GetRequiredService<IOptions<KeygateClientOptions>>().Value));
        return services.AddHttpClient(HttpClientName);
    }
}
