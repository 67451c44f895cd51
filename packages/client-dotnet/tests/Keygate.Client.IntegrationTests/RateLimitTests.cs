using System.Net;

namespace Keygate.Client.IntegrationTests;

/// <summary>
/// The limited key allows one call a minute, and the e2e test made that call before these tests started, so the
/// gateway refuses the key until its window ends and says when in <c>Retry-After</c>.
/// </summary>
public class RateLimitTests
{
    [Fact]
    public async Task A429IsThrownWithoutRetriesAndAPostIsRetriedAfterTheRealRetryAfter()
    {
        var recording = new RecordingHandler();
        using var http = new HttpClient(recording);

        using var noRetries = Env.Client(Env.LimitedKey, o => o.Retry = KeygateRetryOptions.None, http);
        // Normally the first call is refused. When building these tests took longer than the window, the first call
        // opens a new window and the second is refused; when the window is about to end, it is waited out first, so
        // the calls below still meet a closed window.
        KeygateProblemException? refused = null;
        for (var attempt = 0; attempt < 4 && refused is null; attempt++)
        {
            refused = await Record.ExceptionAsync(() => noRetries.Catalog.ListChannelsAsync()) as KeygateProblemException;
            if (refused?.RetryAfter is { } soon && soon < TimeSpan.FromSeconds(5))
            {
                await Task.Delay(soon + TimeSpan.FromMilliseconds(500));
                refused = null;
            }
        }
        Assert.NotNull(refused);
        Assert.Equal(429, refused.Status);
        Assert.Equal("RATE_LIMITED", refused.Code);
        Assert.NotNull(refused.RetryAfter);
        Assert.InRange(refused.RetryAfter.Value, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(60));
        Assert.NotNull(refused.RateLimit);
        Assert.Equal(1, refused.RateLimit.Limit);
        Assert.Equal(60, refused.RateLimit.WindowSeconds);
        Assert.Equal(0, refused.RateLimit.Remaining);
        Assert.Equal(HttpStatusCode.TooManyRequests, recording.Answers[^1].Status);
        var seen = recording.Answers.Count;

        // A POST is retried too, under one Idempotency-Key, so the cart is made once.
        using var client = Env.Client(Env.LimitedKey, httpClient: http);
        var cart = await client.Carts.CreateAsync("WEB_DE");

        Assert.StartsWith("crt_", cart.Id);
        Assert.Equal(seen + 2, recording.Answers.Count);
        var (_, status, refusedAt, retryAfter, firstKey) = recording.Answers[seen];
        var (method, finalStatus, answeredAt, _, secondKey) = recording.Answers[seen + 1];
        Assert.Equal(HttpStatusCode.TooManyRequests, status);
        Assert.Equal(HttpMethod.Post, method);
        Assert.True((int)finalStatus is >= 200 and < 300, $"the retried POST answered {finalStatus}");
        Assert.NotNull(firstKey);
        Assert.Equal(firstKey, secondKey);
        // Retry-After is rounded up to whole seconds; the retry went out no earlier than it said, less that rounding.
        Assert.True(answeredAt - refusedAt >= retryAfter!.Value - TimeSpan.FromSeconds(1), $"retried after {answeredAt - refusedAt}, Retry-After was {retryAfter}");
        Assert.Equal(0, client.RateLimit?.Remaining);
    }
}
