namespace Keygate.Client.IntegrationTests;

/// <summary>The test environment holds the 10,000 products the e2e test seeded (KG-00001 … KG-10000).</summary>
public class PaginationTests
{
    private const int Seeded = 10_000;

    [Fact]
    public async Task WalksEverySeededProductInPagesOfAHundredOnceEach()
    {
        var recording = new RecordingHandler();
        using var client = Env.Client((await Env.CreateKeyAsync("dotnet-pager", "article:r")).Secret!, httpClient: new HttpClient(recording));

        var skus = new List<string>();
        await foreach (var product in client.Catalog.ListProductsAutoPagingAsync("WEB_DE", pageSize: 100)) skus.Add(product.Sku!);

        Assert.Equal(skus.Count, skus.Distinct().Count());
        var missing = Enumerable.Range(1, Seeded).Select(n => $"KG-{n:D5}").Except(skus).ToList();
        Assert.True(missing.Count == 0, $"{missing.Count} seeded products missing, e.g. {string.Join(", ", missing.Take(5))}");
        Assert.Equal((skus.Count + 99) / 100, recording.Answers.Count);
    }

    [Fact]
    public async Task BreakingOutStopsFetching()
    {
        var recording = new RecordingHandler();
        using var client = Env.Client((await Env.CreateKeyAsync("dotnet-pager-break", "article:r")).Secret!, httpClient: new HttpClient(recording));

        var taken = 0;
        await foreach (var _ in client.Catalog.ListProductsAutoPagingAsync("WEB_DE", pageSize: 100))
            if (++taken == 150) break;

        Assert.Equal(150, taken);
        Assert.Equal(2, recording.Answers.Count);
    }

    [Fact]
    public async Task CancellingStopsTheWalk()
    {
        var recording = new RecordingHandler();
        using var client = Env.Client((await Env.CreateKeyAsync("dotnet-pager-cancel", "article:r")).Secret!, httpClient: new HttpClient(recording));
        using var cancellation = new CancellationTokenSource();

        var taken = 0;
        await Assert.ThrowsAnyAsync<OperationCanceledException>(async () =>
        {
            await foreach (var _ in client.Catalog.ListProductsAutoPagingAsync("WEB_DE", pageSize: 100).WithCancellation(cancellation.Token))
                if (++taken == 250) cancellation.Cancel();
        });

        Assert.Equal(250, taken);
        Assert.Equal(3, recording.Answers.Count);
    }
}
