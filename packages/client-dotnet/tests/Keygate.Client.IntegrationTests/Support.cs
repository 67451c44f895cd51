using System.Net;
using Keygate.Client.Generated.Models;

namespace Keygate.Client.IntegrationTests;

/// <summary>What tests/e2e/client-dotnet.test.ts hands over: the gateway's URL and the keys it made with the operator CLI.</summary>
internal static class Env
{
    /// <summary>The running gateway, e.g. <c>http://127.0.0.1:40123</c>.</summary>
    public static Uri BaseUrl => new(Required("KEYGATE_BASE_URL"));

    /// <summary>A test key with <c>auth:rw</c> and every resource scope, made with the CLI (only it grants <c>auth:rw</c>).</summary>
    public static string AdminKey => Required("KEYGATE_ADMIN_KEY");

    /// <summary>A test key allowed one call a minute, whose window the e2e test opened before starting these tests.</summary>
    public static string LimitedKey => Required("KEYGATE_LIMITED_KEY");

    // A missing variable fails the test: these tests never skip.
    private static string Required(string name) =>
        Environment.GetEnvironmentVariable(name) is { Length: > 0 } value
            ? value
            : throw new InvalidOperationException($"{name} is not set: run these tests through tests/e2e/client-dotnet.test.ts");

    /// <summary>A client for <paramref name="key"/> against the running gateway.</summary>
    public static KeygateClient Client(string key, Action<KeygateClientOptions>? configure = null, HttpClient? httpClient = null)
    {
        var options = new KeygateClientOptions { BaseUrl = BaseUrl, ApiKey = key };
        configure?.Invoke(options);
        return new KeygateClient(httpClient ?? new HttpClient(), options);
    }

    /// <summary>Creates a test key through the API with the admin key.</summary>
    public static async Task<ApiKeyWithSecret> CreateKeyAsync(string name, params string[] scopes)
    {
        using var admin = Client(AdminKey);
        return await admin.Keys.CreateAsync(new CreateKeyRequest { Name = name, Environment = CreateKeyRequest_environment.Test, Scopes = [.. scopes] });
    }
}

/// <summary>Records the status and time of every answer that reaches the caller's HttpClient.</summary>
internal sealed class RecordingHandler() : DelegatingHandler(new HttpClientHandler())
{
    public List<(HttpMethod Method, HttpStatusCode Status, DateTimeOffset At, TimeSpan? RetryAfter, string? IdempotencyKey)> Answers { get; } = [];

    protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
    {
        var response = await base.SendAsync(request, cancellationToken);
        var key = request.Headers.TryGetValues("Idempotency-Key", out var values) ? values.Single() : null;
        lock (Answers) Answers.Add((request.Method, response.StatusCode, DateTimeOffset.UtcNow, response.Headers.RetryAfter?.Delta, key));
        return response;
    }
}
