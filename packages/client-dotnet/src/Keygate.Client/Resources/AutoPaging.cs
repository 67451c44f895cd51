using System.Runtime.CompilerServices;

namespace Keygate.Client.Resources;

/// <summary>Walks a cursor-paged list for the caller: one request per page, each retried like any other call.</summary>
internal static class AutoPaging
{
    /// <summary>
    /// Yields the items of every page in order, fetching the next page only when the caller has taken the last item
    /// of this one, and stops after the page whose <c>nextCursor</c> is null. A cursor the API already gave is a loop
    /// that would repeat items, so it is thrown as an error instead of followed. Cancelling the token stops the walk
    /// before the next item or page.
    /// </summary>
    public static async IAsyncEnumerable<TItem> WalkAsync<TPage, TItem>(
        Func<string?, CancellationToken, Task<TPage>> fetchPage,
        Func<TPage, IEnumerable<TItem>?> itemsOf,
        Func<TPage, string?> nextCursorOf,
        [EnumeratorCancellation] CancellationToken cancellationToken = default)
    {
        var followed = new HashSet<string>(StringComparer.Ordinal);
        string? cursor = null;
        while (true)
        {
            cancellationToken.ThrowIfCancellationRequested();
            var page = await fetchPage(cursor, cancellationToken).ConfigureAwait(false);
            foreach (var item in itemsOf(page) ?? [])
            {
                cancellationToken.ThrowIfCancellationRequested();
                yield return item;
            }
            cursor = nextCursorOf(page);
            if (string.IsNullOrEmpty(cursor)) yield break;
            if (!followed.Add(cursor)) throw new InvalidOperationException($"keygate client: the API repeated the cursor {cursor}; stopping rather than repeating items");
        }
    }
}
