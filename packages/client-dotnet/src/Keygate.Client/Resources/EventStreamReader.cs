using System.Runtime.CompilerServices;
using System.Text;
using System.Text.Json;

namespace Keygate.Client.Resources;

/// <summary>One event of the sandbox event stream.</summary>
/// <param name="Id">The event id (<c>evt_…</c>); pass it as <c>lastEventId</c> to resume after it.</param>
/// <param name="Type">The event type, e.g. <c>order.created</c>.</param>
/// <param name="Payload">The envelope every webhook delivery of this event sends.</param>
public sealed record KeygateStreamEvent(string? Id, string? Type, JsonElement Payload);

/// <summary>Reads <c>text/event-stream</c> as the HTML standard's event-stream parser does (id, event, data; comments skipped).</summary>
internal static class EventStreamReader
{
    public static async IAsyncEnumerable<KeygateStreamEvent> ReadAsync(Stream stream, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        using var reader = new StreamReader(stream, Encoding.UTF8);
        string? id = null, type = null;
        var data = new StringBuilder();
        while (await reader.ReadLineAsync(cancellationToken).ConfigureAwait(false) is { } line)
        {
            if (line.Length == 0)
            {
                if (data.Length > 0)
                {
                    using var document = JsonDocument.Parse(data.ToString());
                    yield return new KeygateStreamEvent(id, type, document.RootElement.Clone());
                }
                type = null;
                data.Clear();
                continue;
            }
            if (line.StartsWith(':')) continue;
            var colon = line.IndexOf(':');
            var field = colon < 0 ? line : line[..colon];
            var value = colon < 0 ? "" : line[(colon + 1)..];
            if (value.StartsWith(' ')) value = value[1..];
            switch (field)
            {
                case "id": id = value; break;
                case "event": type = value; break;
                case "data": data.Append(data.Length > 0 ? "\n" : "").Append(value); break;
            }
        }
    }
}
