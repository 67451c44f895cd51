using System.Net;

namespace Keygate.Client.Tests;

public class NoticeTests
{
    private const string Cart = """{"id":"cart_1","channel":"de","currency":"EUR","status":"open","lines":[]}""";
    private const string Order = """{"id":"ord_1","status":"created","lines":[]}""";

    [Fact]
    public async Task ADeprecatedOperationIsReportedOncePerDocumentedOperation()
    {
        var notices = new List<KeygateNotice>();
        var test = new TestClient(o => o.OnNotice = notices.Add);
        (string, string)[] deprecated =
        [
            ("Deprecation", "@1767225600"),
            ("Sunset", "Thu, 01 Jul 2027 00:00:00 GMT"),
            ("Link", "<https://keygate.dev/deprecation-policy>; rel=\"deprecation\""),
        ];
        test.Stub.Answer(HttpStatusCode.Created, Order, deprecated).Answer(HttpStatusCode.Created, Order, deprecated);

        await test.Client.Carts.CheckoutAsync("cart_1");
        await test.Client.Carts.CheckoutAsync("cart_2");

        var notice = Assert.IsType<DeprecationNotice>(Assert.Single(notices));
        Assert.Equal("POST /v2/carts/{id}:checkout", notice.Operation);
        Assert.Equal(DateTimeOffset.FromUnixTimeSeconds(1767225600), notice.DeprecatedAt);
        Assert.Equal(new DateTimeOffset(2027, 7, 1, 0, 0, 0, TimeSpan.Zero), notice.SunsetAt);
        Assert.Equal("https://keygate.dev/deprecation-policy", notice.Link);
    }

    [Fact]
    public async Task AKeyAboutToExpireIsReportedOncePerExpiryDay()
    {
        var notices = new List<KeygateNotice>();
        var test = new TestClient(o => o.OnNotice = notices.Add);
        test.Stub
            .Answer(HttpStatusCode.OK, Cart, ("Keygate-Key-Expires", "2026-12-01; days-left=5"))
            .Answer(HttpStatusCode.OK, Cart, ("Keygate-Key-Expires", "2026-12-01; days-left=5"))
            .Answer(HttpStatusCode.OK, Cart);

        await test.Client.Carts.GetAsync("cart_1");
        await test.Client.Carts.GetAsync("cart_1");
        await test.Client.Carts.GetAsync("cart_1");

        Assert.Equal([new KeyExpiryNotice(new DateOnly(2026, 12, 1), 5)], notices);
    }

    [Fact]
    public async Task NoNoticeForAPlainAnswer()
    {
        var notices = new List<KeygateNotice>();
        var test = new TestClient(o => o.OnNotice = notices.Add);
        test.Stub.Answer(HttpStatusCode.OK, Cart);

        await test.Client.Carts.GetAsync("cart_1");

        Assert.Empty(notices);
    }

    [Fact]
    public async Task ADeprecatedOperationThatFailsIsStillReported()
    {
        var notices = new List<KeygateNotice>();
        var test = new TestClient(o => o.OnNotice = notices.Add);
        test.Stub.Answer(HttpStatusCode.Forbidden, Problems.InsufficientScope, ("Deprecation", "?1"));

        await Assert.ThrowsAsync<KeygateProblemException>(() => test.Client.Catalog.ListChannelsAsync());

        Assert.Equal([new DeprecationNotice("GET /v2/channels", null, null, null)], notices);
    }
}
