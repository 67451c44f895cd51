using System.Net;
using System.Text;

namespace Keygate.Client.Tests;

public class EventStreamTests
{
    [Fact]
    public async Task ReadsEachEventWithItsIdAndTypeAndSkipsComments()
    {
        var test = new TestClient();
        const string stream = """
            : keep-alive

            id: evt_1
            event: order.created
            data: {"id":"evt_1","type":"order.created"}

            id: evt_2
            event: stock.updated
            data: {"id":"evt_2",
            data: "type":"stock.updated"}


            """;
        test.Stub.Answer(HttpStatusCode.OK).Respond(r => r.Content = new StringContent(stream.ReplaceLineEndings("\n"), Encoding.UTF8, "text/event-stream"));

        var events = new List<Resources.KeygateStreamEvent>();
        await foreach (var item in test.Client.Webhooks.StreamEventsAsync(lastEventId: "evt_0")) events.Add(item);

        Assert.Equal(["evt_1 order.created", "evt_2 stock.updated"], events.Select(e => $"{e.Id} {e.Type}"));
        Assert.Equal("stock.updated", events[1].Payload.GetProperty("type").GetString());
        Assert.Equal("evt_0", Assert.Single(test.Stub.Requests).Headers["Last-Event-ID"]);
    }
}
