using TplPractices.Analyzers.Tests.Verifiers;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0009's premise, run on the test runtime: an attached child makes its parent wait, except where the parent
/// denies attachment (Task.Run, DenyChildAttach), which is exactly where the fix removes the flag.
/// </summary>
public sealed class AttachedToParentBehaviourTests
{
    private const string Source = """
        using System.Threading;
        using System.Threading.Tasks;

        public static class Api
        {
            // Whether the child had finished when the parent completed.
            private static bool ChildDoneWhenParentEnds(System.Func<System.Action, Task> startParent, TaskCreationOptions childOptions)
            {
                var childDone = 0;
                var parent = startParent(() => Task.Factory.StartNew(() => { Thread.Sleep(100); Volatile.Write(ref childDone, 1); }, childOptions));
                parent.Wait();
                return Volatile.Read(ref childDone) == 1;
            }

            public static bool InStartNew(bool attached) =>
                ChildDoneWhenParentEnds(body => Task.Factory.StartNew(body), attached ? TaskCreationOptions.AttachedToParent : TaskCreationOptions.None);

            public static bool InTaskRun(bool attached) =>
                ChildDoneWhenParentEnds(body => Task.Run(body), attached ? TaskCreationOptions.AttachedToParent : TaskCreationOptions.None);

            public static bool InDenyingTask(bool attached) =>
                ChildDoneWhenParentEnds(body => Task.Factory.StartNew(body, TaskCreationOptions.DenyChildAttach), attached ? TaskCreationOptions.AttachedToParent : TaskCreationOptions.None);
        }
        """;

    [Fact]
    public async Task InAnOrdinaryTask_TheParentWaitsForAnAttachedChild()
    {
        Assert.Equal("returned True", await CodeRunner.RunAsync(Source, "Api", "InStartNew", true));
        Assert.Equal("returned False", await CodeRunner.RunAsync(Source, "Api", "InStartNew", false));
    }

    [Theory]
    [InlineData("InTaskRun")]
    [InlineData("InDenyingTask")]
    public async Task WhereTheParentDeniesAttachment_TheFlagChangesNothing(string method)
    {
        Assert.Equal("returned False", await CodeRunner.RunAsync(Source, "Api", method, true));
        Assert.Equal("returned False", await CodeRunner.RunAsync(Source, "Api", method, false));
    }
}
