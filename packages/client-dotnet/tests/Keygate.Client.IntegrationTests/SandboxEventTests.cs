namespace Keygate.Client.IntegrationTests;

public class SandboxEventTests
{
    [Fact]
    public async Task TriggeredEventsAreStreamedAfterTheLastOneSeen()
    {
        using var client = Env.Client(Env.AdminKey);
        // A stream that the client buffered instead of reading as it comes would never answer: cut it short.
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        var seen = await client.Webhooks.TriggerEventAsync("customer.created", cancellationToken: timeout.Token);

        await using var events = client.Webhooks.StreamEventsAsync(lastEventId: seen.EventId, timeout.Token).GetAsyncEnumerator(timeout.Token);
        var next = events.MoveNextAsync();
        var later = await client.Webhooks.TriggerEventAsync("customer.created", cancellationToken: timeout.Token);
        var ids = new List<string?>();
        while (await next)
        {
            ids.Add(events.Current.Id);
            if (events.Current.Id == later.EventId) break;
            next = events.MoveNextAsync();
        }

        Assert.Equal(later.EventId, ids[^1]);
        Assert.DoesNotContain(seen.EventId, ids);
        Assert.Equal("customer.created", events.Current.Type);
        Assert.Equal(later.EventId, events.Current.Payload.GetProperty("id").GetString());
    }
}
