using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.Operations;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.CodeFixes.Internals;

/// <summary>
/// A StartNew or ContinueWith call moved to its longest sibling, the one that takes the delegate (and state) followed by
/// a CancellationToken, the options and a TaskScheduler: the arguments the call passes stay as written, and each tail
/// parameter it did not pass gets the value the shorter overload used (<c>CancellationToken.None</c>, the options'
/// <c>None</c>) or the value the fix chooses. TPL0019 chooses the scheduler; TPL0011 the options of a call that passes a
/// token or scheduler without them. Both fixes write the same argument list, so they compose in either order.
/// </summary>
internal static class FullTaskCall
{
    /// <summary>
    /// The sibling of <paramref name="method"/> with the three tail parameters; null where the type has none. With
    /// <paramref name="orSchedulerOnly"/>, a method that has no such sibling (<c>Task.Start</c>) takes the one that
    /// adds only the scheduler. The leading parameters must match the call's exactly, type arguments included.
    /// </summary>
    public static IMethodSymbol? SiblingOf(IMethodSymbol method, Compilation compilation, bool orSchedulerOnly = false)
    {
        if (compilation.GetTypeByMetadataName(WellKnownTypeNames.CancellationToken) is not { } token
            || compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskScheduler) is not { } scheduler)
        {
            return null;
        }

        var leading = method.Parameters.TakeWhile(p => !IsTail(p.Type, token, scheduler)).ToList();
        IMethodSymbol? schedulerOnly = null;
        foreach (var candidate in method.ContainingType.GetMembers(method.Name).OfType<IMethodSymbol>())
        {
            var tail = candidate.Parameters.Length - leading.Count;
            if (!(tail == 3 || (orSchedulerOnly && tail == 1)) || candidate.TypeParameters.Length != method.TypeArguments.Length)
            {
                continue;
            }

            var constructed = candidate.IsGenericMethod ? candidate.Construct(method.TypeArguments.ToArray()) : candidate;
            var parameters = constructed.Parameters;
            if (!leading.Select((p, i) => SymbolEqualityComparer.Default.Equals(p.Type, parameters[i].Type)).All(same => same)
                || !SymbolEqualityComparer.Default.Equals(parameters[parameters.Length - 1].Type, scheduler))
            {
                continue;
            }

            if (tail == 1)
            {
                schedulerOnly = constructed;
            }
            else if (SymbolEqualityComparer.Default.Equals(parameters[leading.Count].Type, token) && parameters[leading.Count + 1].Type.TypeKind == TypeKind.Enum)
            {
                return constructed;
            }
        }

        return schedulerOnly;
    }

    /// <summary>Whether <paramref name="method"/> passes a token or a scheduler, the tail parameters other than options.</summary>
    public static bool TakesTokenOrScheduler(IMethodSymbol method, Compilation compilation) =>
        compilation.GetTypeByMetadataName(WellKnownTypeNames.CancellationToken) is { } token
        && compilation.GetTypeByMetadataName(WellKnownTypeNames.TaskScheduler) is { } scheduler
        && method.Parameters.Any(p => p.Type.TypeKind != TypeKind.Enum && IsTail(p.Type, token, scheduler));

    /// <summary>
    /// Rewrites <paramref name="call"/> to pass every parameter of <paramref name="full"/>: <paramref name="chosen"/>
    /// gives the value of a tail parameter the call did not pass (null: the shorter overload's default). Named
    /// arguments stay named, and the new ones are named too, as is a positional argument written after a named one.
    /// With <paramref name="moved"/>, the argument written for one parameter goes to another (TPL0019's state that took
    /// a token), and the first gets what <paramref name="chosen"/> gives.
    /// </summary>
    public static void Rewrite(
        DocumentEditor editor,
        InvocationExpressionSyntax call,
        ImmutableArray<IArgumentOperation> arguments,
        IMethodSymbol full,
        Func<IParameterSymbol, SyntaxNode?> chosen,
        (string From, string To)? moved = null)
    {
        // Positions in the written list rather than nodes: a call inside a lambda argument may be rewritten by the same
        // pass, so the list is rebuilt from its current nodes when the editor applies the change.
        var written = call.ArgumentList.Arguments;
        var positions = new Dictionary<string, int>(StringComparer.Ordinal);
        foreach (var argument in arguments)
        {
            if (argument.Written() is { } syntax && argument.Parameter is { } parameter)
            {
                positions[parameter.Name == moved?.From ? moved.Value.To : parameter.Name] = written.IndexOf(syntax);
            }
        }

        var named = written.Any(a => a.NameColon is not null);

        // A positional argument after a named one (C# 7.2) binds by its place, which the longer overload gives another
        // parameter (`ContinueWith(f, state: s, options)`: the token's): it takes its parameter's name.
        var firstNamed = named ? written.IndexOf(a => a.NameColon is not null) : written.Count;
        var toName = positions.Where(p => p.Value > firstNamed && written[p.Value].NameColon is null).ToDictionary(p => p.Value, p => p.Key);
        var plan = new List<(int Position, ArgumentSyntax? Added)>();
        foreach (var parameter in full.Parameters)
        {
            if (positions.TryGetValue(parameter.Name, out var position) && position >= 0)
            {
                plan.Add((position, null));
                continue;
            }

            var added = SyntaxFactory.Argument((ExpressionSyntax)(chosen(parameter) ?? DefaultOf(editor.Generator, parameter.Type)));
            plan.Add((-1, named ? added.WithNameColon(SyntaxFactory.NameColon(parameter.Name)) : added));
        }

        // Named arguments keep the order they were written in; the new ones go after them.
        if (named)
        {
            plan = Enumerable.Range(0, written.Count).Select(i => (i, (ArgumentSyntax?)null)).Concat(plan.Where(p => p.Added is not null)).ToList();
        }

        editor.ReplaceNode(call.ArgumentList, (current, _) =>
        {
            var list = (ArgumentListSyntax)current;
            var arguments = list.Arguments;
            foreach (var pair in toName)
            {
                var argument = arguments[pair.Key];
                arguments = arguments.Replace(argument, argument.WithoutLeadingTrivia()
                    .WithNameColon(SyntaxFactory.NameColon(pair.Value))
                    .WithLeadingTrivia(argument.GetLeadingTrivia()));
            }

            return list.WithArguments(Rebuilt(arguments, plan)).WithAdditionalAnnotations(Formatter.Annotation);
        });
    }

    /// <summary>
    /// The arguments in the plan's order. The separator after a written argument stays after it, with the comments and
    /// line break on it; a line break after the last written one (a <c>)</c> on a line of its own, a line comment)
    /// goes after the arguments added behind it, or they would begin the next line.
    /// </summary>
    private static SeparatedSyntaxList<ArgumentSyntax> Rebuilt(SeparatedSyntaxList<ArgumentSyntax> written, List<(int Position, ArgumentSyntax? Added)> plan)
    {
        var separators = written.GetSeparators().ToList();
        var lastWritten = plan.FindLastIndex(p => p.Added is null);
        var trailing = lastWritten >= 0 && lastWritten < plan.Count - 1 ? written[plan[lastWritten].Position].GetTrailingTrivia() : default;
        var moves = trailing.Any(t => t.IsKind(SyntaxKind.EndOfLineTrivia));
        var items = new List<SyntaxNodeOrToken>();
        for (var k = 0; k < plan.Count; k++)
        {
            var (position, added) = plan[k];
            if (k > 0)
            {
                var previous = plan[k - 1].Position;
                items.Add(previous >= 0 && previous < separators.Count
                    ? separators[previous]
                    : SyntaxFactory.Token(SyntaxKind.CommaToken).WithTrailingTrivia(SyntaxFactory.Space));
            }

            var argument = added ?? written[position];
            var after = k > 0 ? plan[k - 1].Position : -1;
            if (added is not null && after >= 0 && after + 1 < written.Count)
            {
                // Between two written arguments: it takes the next one's place, indentation included (the line break
                // may end the separator, a line comment on it), and that one follows on the same line.
                argument = argument.WithLeadingTrivia(written[after + 1].GetLeadingTrivia());
            }
            else if (added is null && position > 0 && plan[k - 1].Added is not null)
            {
                argument = argument.WithLeadingTrivia(SyntaxFactory.Space);
            }

            items.Add(moves && k == lastWritten ? argument.WithoutTrailingTrivia()
                : moves && k == plan.Count - 1 ? argument.WithTrailingTrivia(trailing)
                : argument);
        }

        return SyntaxFactory.SeparatedList<ArgumentSyntax>(items);
    }

    /// <summary>What the shorter overload passed for a tail parameter: no token (<c>CancellationToken.None</c>), no options.</summary>
    private static SyntaxNode DefaultOf(SyntaxGenerator generator, ITypeSymbol type) =>
        generator.MemberAccessExpression(ImportedType.Of(generator, type), "None");

    private static bool IsTail(ITypeSymbol type, INamedTypeSymbol token, INamedTypeSymbol scheduler) =>
        type.TypeKind == TypeKind.Enum
        || SymbolEqualityComparer.Default.Equals(type, token)
        || SymbolEqualityComparer.Default.Equals(type, scheduler);
}
