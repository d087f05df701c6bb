using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using TplPractices.Analyzers.Internals;

namespace TplPractices.Analyzers.Rules;

/// <summary>
/// TPL0016's option <c>trust_injected_services</c> (off by default): a call on a service the type was given cannot
/// fail on its receiver. A service here is a <c>readonly</c> instance field that every constructor sets, from a
/// parameter that is checked for null (<c>?? throw</c>, <c>ThrowIfNull</c>, <c>if (p is null) throw</c>) or declared
/// without <c>?</c> (non-nullable under nullable warnings, oblivious without them), or from a <c>new</c> expression in its
/// initializer. What the option accepts on
/// top is the callee: any method of such a service, interface methods included, is taken to put its exceptions in
/// its task, as AsyncFixer01 takes every callee; a plain implementation that validates its arguments first would
/// throw at the call instead.
/// </summary>
internal static class InjectedServices
{
    public static readonly NumberOption TrustOption = new("trust_injected_services", 0, 0, 1);

    /// <summary>
    /// Whether every constructor of the field's class leaves it holding a non-null value: a <c>new</c> in its
    /// initializer that no constructor replaces, or in every constructor a parameter checked for null, or (unless
    /// <paramref name="checkedOnly"/>) one declared non-nullable under nullable warnings, which a caller can still break
    /// with <c>null!</c>. Not a struct's field, which <c>default</c> leaves null. A static field: a <c>new</c> in its
    /// initializer that no static constructor replaces (the type initializer runs before any code can read it), no static
    /// initializer before it may run code, and not <c>[ThreadStatic]</c>.
    /// </summary>
    public static bool IsNeverNull(IFieldSymbol field, bool checkedOnly = false)
    {
        if (!field.IsReadOnly
            || field.DeclaringSyntaxReferences.Length != 1
            || field.DeclaringSyntaxReferences[0].GetSyntax() is not VariableDeclaratorSyntax declarator)
        {
            return false;
        }

        var initializer = declarator.Initializer?.Value;
        if (field.IsStatic)
        {
            // A [ThreadStatic] field's initializer runs on one thread only: every other thread sees null.
            return initializer is BaseObjectCreationExpressionSyntax
                && field.ContainingType.StaticConstructors.All(c => SetsFromCheckedParameter(c, field.Name, initializer, checkedOnly))
                && !field.GetAttributes().Any(a => a.AttributeClass is { Name: "ThreadStaticAttribute", ContainingNamespace.Name: "System" })
                && !RunsCodeBefore(declarator, field.ContainingType);
        }

        if (field.ContainingType.TypeKind != TypeKind.Class)
        {
            return false;
        }

        return IsSetInEveryConstructor(field.ContainingType, field.Name, initializer, checkedOnly) && !IsSetByAnInitAccessor(field);
    }

    /// <summary>
    /// The same of a get-only auto-property of this class (<c>Repo Repo { get; } = new Repo();</c>): its getter reads a
    /// readonly field that only initializers and constructors set. Not one a derived class may override.
    /// </summary>
    public static bool IsNeverNull(IPropertySymbol property, bool checkedOnly = false) =>
        property is { IsStatic: false, SetMethod: null, IsVirtual: false, IsAbstract: false, IsOverride: false, ContainingType.TypeKind: TypeKind.Class }
        && property.DeclaringSyntaxReferences.Length == 1
        && property.DeclaringSyntaxReferences[0].GetSyntax() is PropertyDeclarationSyntax { AccessorList.Accessors: { Count: 1 } accessors } declaration
        && accessors[0] is { Body: null, ExpressionBody: null } getter
        && getter.IsKind(SyntaxKind.GetAccessorDeclaration)
        && IsSetInEveryConstructor(property.ContainingType, property.Name, declaration.Initializer?.Value, checkedOnly);

    private static bool IsSetInEveryConstructor(INamedTypeSymbol type, string member, ExpressionSyntax? initializer, bool checkedOnly) =>
        type.InstanceConstructors is { IsEmpty: false } constructors && constructors.All(c => SetsFromCheckedParameter(c, member, initializer, checkedOnly));

    /// <summary>
    /// Whether a static initializer that runs before the field's may run code (<see cref="StaticInitializers"/>): code
    /// that calls the method while the field is still null. Those above it in its declaration and its part, and any in
    /// another part of the type, whose order against this one is the compiler's.
    /// </summary>
    private static bool RunsCodeBefore(VariableDeclaratorSyntax declarator, INamedTypeSymbol type)
    {
        if (declarator.Parent is not VariableDeclarationSyntax { Parent: FieldDeclarationSyntax field } declaration
            || field.Parent is not TypeDeclarationSyntax part
            || StaticInitializers.OtherPartMayRunCode(type, part))
        {
            return true;
        }

        foreach (var earlier in declaration.Variables.TakeWhile(v => v != declarator))
        {
            if (earlier.Initializer is { } initializer && StaticInitializers.MayRunCode(initializer.Value))
            {
                return true;
            }
        }

        return part.Members.TakeWhile(m => m != field).Any(m => StaticInitializers.Of(m) is { } initializer && StaticInitializers.MayRunCode(initializer));
    }

    /// <summary>
    /// A class's primary constructor parameter that a member uses, the way C# 12 code takes its services: declared
    /// without <c>?</c> (what the option accepts of a field set from a parameter) and written by no
    /// member of the type. Every other constructor must chain to the primary one, so no object skips it. Not a struct's,
    /// which <c>default</c> leaves null.
    /// </summary>
    public static bool IsNeverNullService(IParameterSymbol parameter) =>
        parameter.IsPrimaryConstructorParameter()
        && parameter.ContainingType is { TypeKind: TypeKind.Class }
        && IsDeclaredNonNull(parameter)
        && !parameter.IsWrittenInItsType();

    /// <summary>An <c>init</c> accessor may set a readonly field too, from an object initializer after the constructor.</summary>
    private static bool IsSetByAnInitAccessor(IFieldSymbol field) =>
        field.ContainingType.GetMembers().OfType<IPropertySymbol>().Any(p => p.SetMethod is { IsInitOnly: true } init
            && init.DeclaringSyntaxReferences.Any(r => r.GetSyntax().DescendantNodes().OfType<IdentifierNameSyntax>().Any(n => n.Identifier.ValueText == field.Name && n.IsWritten())));

    /// <summary>
    /// The constructor chains to another of this type (which is checked in its turn), or leaves a <c>new</c> from the
    /// field's initializer in place, or assigns the field only from parameters that cannot be null; a primary
    /// constructor counts through the field's initializer. A write the constructor makes otherwise (a tuple, an
    /// <c>out</c> argument) leaves the question open.
    /// </summary>
    private static bool SetsFromCheckedParameter(IMethodSymbol constructor, string field, ExpressionSyntax? initializer, bool checkedOnly)
    {
        var initializedByNew = initializer is BaseObjectCreationExpressionSyntax;
        if (constructor.IsImplicitlyDeclared)
        {
            return initializedByNew;
        }

        if (constructor.DeclaringSyntaxReferences.Length != 1)
        {
            return false;
        }

        switch (constructor.DeclaringSyntaxReferences[0].GetSyntax())
        {
            case ConstructorDeclarationSyntax { Initializer: { } chained } when chained.ThisOrBaseKeyword.IsKind(SyntaxKind.ThisKeyword):
                return true;
            case ConstructorDeclarationSyntax declaration:
                var writes = declaration.DescendantNodes().OfType<IdentifierNameSyntax>().Where(n => n.Identifier.ValueText == field && n.IsWritten()).ToList();
                if (writes.Count == 0)
                {
                    return initializedByNew;
                }

                return writes.All(w => w.Parent is AssignmentExpressionSyntax assignment && assignment.Left == w
                        || w.Parent is MemberAccessExpressionSyntax { Expression: ThisExpressionSyntax, Parent: AssignmentExpressionSyntax thisAssignment } access && thisAssignment.Left == access)
                    && writes.All(w => w.FirstAncestorOrSelf<AssignmentExpressionSyntax>() is { Right: var value } && (value is BaseObjectCreationExpressionSyntax || IsNonNullParameter(value, constructor, declaration, checkedOnly)))
                    && (initializedByNew || ObjectUntouchedUntilSet(declaration, writes, constructor.ContainingType));
            case TypeDeclarationSyntax:
                return initializedByNew || initializer is not null && IsNonNullParameter(initializer, constructor, null, checkedOnly);
            default:
                return false;
        }
    }

    /// <summary>
    /// The constructor sets the field in a statement of its own body (not under an <c>if</c>, a loop or a <c>try</c>),
    /// and no code before that statement, nor a base class's constructor of the project, can run a method of the
    /// object: until then the method could run with the field still null (the original puts that exception in its
    /// task, the fix throws it at the call). A library's base constructor has no body to read and is taken to leave the
    /// object alone.
    /// </summary>
    private static bool ObjectUntouchedUntilSet(ConstructorDeclarationSyntax declaration, List<IdentifierNameSyntax> writes, INamedTypeSymbol type)
    {
        var set = writes.Select(w => w.FirstAncestorOrSelf<AssignmentExpressionSyntax>())
            .FirstOrDefault(a => a?.Parent is ExpressionStatementSyntax { Parent: BlockSyntax block } && block == declaration.Body || a is not null && a == declaration.ExpressionBody?.Expression);
        // A local function anywhere in the body may be called before the write and capture the object.
        return set is not null
            && !Code(declaration).Any(n => n is LocalFunctionStatementSyntax || n.SpanStart < set.Span.End && MayRunCodeOfThis(n, type))
            && BaseConstructorsLeaveItAlone(type.BaseType);
    }

    private static bool BaseConstructorsLeaveItAlone(INamedTypeSymbol? baseType)
    {
        for (var type = baseType; type is { SpecialType: not SpecialType.System_Object } && !type.DeclaringSyntaxReferences.IsEmpty; type = type.BaseType)
        {
            foreach (var constructor in type.InstanceConstructors.SelectMany(c => c.DeclaringSyntaxReferences).Select(r => r.GetSyntax()).OfType<ConstructorDeclarationSyntax>())
            {
                if (Code(constructor).Any(n => MayRunCodeOfThis(n, type)))
                {
                    return false;
                }
            }
        }

        return true;
    }

    /// <summary>What the constructor runs: its body, not the types its parameters name.</summary>
    private static IEnumerable<SyntaxNode> Code(ConstructorDeclarationSyntax constructor) =>
        ((SyntaxNode?)constructor.Body ?? constructor.ExpressionBody)?.DescendantNodes() ?? Enumerable.Empty<SyntaxNode>();

    /// <summary>
    /// Code that may run a method of the object under construction: <c>this</c> passed on or called through (reading or
    /// writing its fields is not), <c>base</c>, a lambda or local function (either may capture it), or a name of an
    /// instance method, property or event of the type or its bases (a call, a getter or a method group).
    /// </summary>
    private static bool MayRunCodeOfThis(SyntaxNode node, INamedTypeSymbol type) => node switch
    {
        ThisExpressionSyntax { Parent: MemberAccessExpressionSyntax { Name: IdentifierNameSyntax name } access } when access.Parent is not InvocationExpressionSyntax =>
            !IsStorageOf(type, name.Identifier.ValueText),
        ThisExpressionSyntax or BaseExpressionSyntax or AnonymousFunctionExpressionSyntax or LocalFunctionStatementSyntax => true,
        IdentifierNameSyntax name when IsLeftmost(name) && !InNameOf(name) => RunsCodeOf(type, name.Identifier.ValueText),
        _ => false,
    };

    private static bool InNameOf(IdentifierNameSyntax name) =>
        name.Ancestors().TakeWhile(a => a is not StatementSyntax).OfType<InvocationExpressionSyntax>().Any(i => i.Expression is IdentifierNameSyntax { Identifier.ValueText: "nameof" });

    private static bool IsLeftmost(IdentifierNameSyntax name) => name.Parent switch
    {
        MemberAccessExpressionSyntax access => access.Expression == name,
        MemberBindingExpressionSyntax or QualifiedNameSyntax or NameColonSyntax or NameEqualsSyntax => false,
        _ => true,
    };

    /// <summary>A field, or an auto-property no derived class can replace: reading or setting it runs no code.</summary>
    private static bool IsStorageOf(INamedTypeSymbol type, string name) =>
        type.MembersNamedInHierarchy(name).Any(m => m is IFieldSymbol || m is IPropertySymbol property && property.IsAutoProperty());

    private static bool RunsCodeOf(INamedTypeSymbol type, string name) =>
        type.MembersNamedInHierarchy(name).Any(m => !m.IsStatic && (m is IMethodSymbol or IEventSymbol || m is IPropertySymbol property && !property.IsAutoProperty()));

    /// <summary><c>p ?? throw …</c>; or <c>p</c> where <c>p</c> is non-nullable under nullable warnings or checked in the body.</summary>
    private static bool IsNonNullParameter(ExpressionSyntax value, IMethodSymbol constructor, ConstructorDeclarationSyntax? body, bool checkedOnly)
    {
        if (value is BinaryExpressionSyntax { RawKind: (int)SyntaxKind.CoalesceExpression, Left: IdentifierNameSyntax checkedName, Right: ThrowExpressionSyntax })
        {
            return Parameter(constructor, checkedName) is not null;
        }

        return value is IdentifierNameSyntax name
            && Parameter(constructor, name) is { } parameter
            && (!checkedOnly && IsDeclaredNonNull(parameter)
                || body is not null && IsCheckedIn(body, parameter.Name));
    }

    /// <summary>
    /// A reference-type parameter declared without <c>?</c> and without a default: non-nullable under nullable warnings,
    /// or oblivious where they are off (the services of code written before C# 8, which a container fills the same way).
    /// Either way a caller can still pass null (<c>null!</c>, or plain <c>null</c> without the warnings): what the
    /// option accepts.
    /// </summary>
    private static bool IsDeclaredNonNull(IParameterSymbol parameter) =>
        parameter.Type.IsReferenceType && parameter.NullableAnnotation != NullableAnnotation.Annotated && !parameter.HasExplicitDefaultValue;

    private static IParameterSymbol? Parameter(IMethodSymbol constructor, IdentifierNameSyntax name) =>
        constructor.Parameters.FirstOrDefault(p => p.Name == name.Identifier.ValueText);

    /// <summary><c>ThrowIfNull(p)</c>, or <c>if (p is null)</c> / <c>if (p == null)</c> with a throw, anywhere in the body.</summary>
    private static bool IsCheckedIn(ConstructorDeclarationSyntax body, string parameter) =>
        body.DescendantNodes().Any(n => n switch
        {
            InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "ThrowIfNull" }, ArgumentList.Arguments: { Count: > 0 } arguments } =>
                arguments[0].Expression is IdentifierNameSyntax argument && argument.Identifier.ValueText == parameter,
            IfStatementSyntax { Condition: var condition, Statement: var then } =>
                IsNullTest(condition, parameter) && then.DescendantNodesAndSelf().Any(t => t is ThrowStatementSyntax),
            _ => false,
        });

    private static bool IsNullTest(ExpressionSyntax condition, string parameter) => condition switch
    {
        IsPatternExpressionSyntax { Expression: IdentifierNameSyntax name, Pattern: ConstantPatternSyntax { Expression: LiteralExpressionSyntax literal } } =>
            name.Identifier.ValueText == parameter && literal.IsKind(SyntaxKind.NullLiteralExpression),
        BinaryExpressionSyntax { RawKind: (int)SyntaxKind.EqualsExpression, Left: IdentifierNameSyntax name, Right: LiteralExpressionSyntax literal } =>
            name.Identifier.ValueText == parameter && literal.IsKind(SyntaxKind.NullLiteralExpression),
        _ => false,
    };
}
