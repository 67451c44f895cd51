namespace Keygate.Client.Tests;

public class WebhookTests
{
    // The test vector of the Standard Webhooks specification.
    private const string Secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private const string Id = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    private const string Body = """{"test": 2432232314}""";
    private const string Signature = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";
    private static readonly DateTimeOffset SignedAt = DateTimeOffset.FromUnixTimeSeconds(1614265330);
    private static readonly KeygateWebhookVerifyOptions AtSigningTime = new() { TimeProvider = new FixedTime(SignedAt) };
    private const string OtherSecret = "whsec_dGhpcyBpcyBhbm90aGVyIHNlY3JldCBvZiAzMiBieXRlcw==";

    private static Dictionary<string, string> Headers(string signature = Signature, string timestamp = "1614265330") =>
        new() { ["Webhook-Id"] = Id, ["Webhook-Timestamp"] = timestamp, ["Webhook-Signature"] = signature };

    [Fact]
    public void AcceptsTheSpecificationsTestVector()
    {
        var verified = KeygateWebhook.Verify(Secret, Headers(), Body, AtSigningTime);

        Assert.Equal(Id, verified.Id);
        Assert.Equal(SignedAt, verified.Timestamp);
        Assert.Equal(2432232314, verified.Payload.GetProperty("test").GetInt64());
    }

    [Fact]
    public void AcceptsAnyOfSeveralSecretsDuringARotation()
    {
        var verified = KeygateWebhook.Verify([OtherSecret, Secret], Headers($"v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA= {Signature}"), Body, AtSigningTime);

        Assert.Equal(Id, verified.Id);
    }

    [Fact]
    public void RefusesAnotherSecret()
    {
        var error = Assert.Throws<WebhookVerificationException>(() => KeygateWebhook.Verify(OtherSecret, Headers(), Body, AtSigningTime));
        Assert.Equal(WebhookVerificationCode.NoMatchingSignature, error.Code);
    }

    [Fact]
    public void RefusesAChangedBody()
    {
        var error = Assert.Throws<WebhookVerificationException>(() => KeygateWebhook.Verify(Secret, Headers(), """{"test": 2432232315}""", AtSigningTime));
        Assert.Equal(WebhookVerificationCode.NoMatchingSignature, error.Code);
    }

    [Fact]
    public void RefusesAnOldTimestamp()
    {
        var later = new KeygateWebhookVerifyOptions { TimeProvider = new FixedTime(SignedAt.AddMinutes(6)) };
        var error = Assert.Throws<WebhookVerificationException>(() => KeygateWebhook.Verify(Secret, Headers(), Body, later));
        Assert.Equal(WebhookVerificationCode.TimestampTooOld, error.Code);
    }

    [Fact]
    public void RefusesATimestampFromTheFuture()
    {
        var earlier = new KeygateWebhookVerifyOptions { TimeProvider = new FixedTime(SignedAt.AddMinutes(-6)) };
        var error = Assert.Throws<WebhookVerificationException>(() => KeygateWebhook.Verify(Secret, Headers(), Body, earlier));
        Assert.Equal(WebhookVerificationCode.TimestampTooNew, error.Code);
    }

    [Fact]
    public void RefusesMissingHeaders()
    {
        var headers = Headers();
        headers.Remove("Webhook-Signature");
        var error = Assert.Throws<WebhookVerificationException>(() => KeygateWebhook.Verify(Secret, headers, Body, AtSigningTime));
        Assert.Equal(WebhookVerificationCode.MissingHeaders, error.Code);
    }

    [Fact]
    public void RefusesATimestampThatIsNotUnixSeconds()
    {
        var error = Assert.Throws<WebhookVerificationException>(() => KeygateWebhook.Verify(Secret, Headers(timestamp: "2021-02-25"), Body, AtSigningTime));
        Assert.Equal(WebhookVerificationCode.InvalidTimestamp, error.Code);
    }

    [Fact]
    public void RefusesASignatureWithoutPadding()
    {
        var error = Assert.Throws<WebhookVerificationException>(() => KeygateWebhook.Verify(Secret, Headers(Signature.TrimEnd('=')), Body, AtSigningTime));
        Assert.Equal(WebhookVerificationCode.NoMatchingSignature, error.Code);
    }

    [Fact]
    public void RefusesASecretThatIsNotBase64()
    {
        Assert.Throws<ArgumentException>(() => KeygateWebhook.Verify("whsec_not base64!", Headers(), Body, AtSigningTime));
    }
}
