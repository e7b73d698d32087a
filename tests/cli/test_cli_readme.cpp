// The README agrees with the program: every `stagecraft` synopsis in its
// code blocks names a command that exists and only options its --help
// lists, and the commands it shows in full that take no input (`arch
// --list`, `zoo --list`) run as shown.

#include "cli_helpers.h"

#include <QFile>
#include <QRegularExpression>
#include <QTest>

using namespace stagecraft;
using namespace stagecraft::test;

namespace {

/// The `stagecraft ...` commands of the README's code blocks, continuation
/// lines joined and `|` alternatives apart.
QStringList readmeCommands() {
    QFile file(QStringLiteral(STAGECRAFT_README));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QStringList commands;
    bool inBlock = false;
    for (const QString& line : QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'))) {
        if (line.startsWith(QStringLiteral("```"))) {
            inBlock = !inBlock;
            continue;
        }
        if (!inBlock)
            continue;
        if (line.startsWith(QStringLiteral("stagecraft "))) {
            commands << line;
        } else if (line.startsWith(QLatin1Char(' ')) && !commands.isEmpty() &&
                   commands.back().startsWith(QStringLiteral("stagecraft "))) {
            commands.back() += QLatin1Char(' ') + line.trimmed();
        } else if (!line.startsWith(QLatin1Char(' '))) {
            commands << QString(); // another program: continuations are not ours
        }
    }
    QStringList alternatives;
    for (const QString& command : std::as_const(commands))
        for (const QString& part : command.split(QStringLiteral(" | ")))
            if (part.trimmed().startsWith(QStringLiteral("stagecraft ")))
                alternatives << part.trimmed();
    return alternatives;
}

/// "stagecraft arch calibrate [--out FILE]" → {"arch", "calibrate"}: the
/// command and its sub-command words before the first option or operand.
QStringList commandWords(const QString& command) {
    QStringList words;
    const QStringList tokens = command.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    for (qsizetype i = 1; i < tokens.size(); ++i) {
        static const QRegularExpression word(QStringLiteral("^[a-z]+$"));
        if (!word.match(tokens[i]).hasMatch())
            break;
        words << tokens[i];
    }
    return words;
}

} // namespace

class TestCliReadme : public QObject {
    Q_OBJECT

private slots:
    void everySynopsisOptionIsInItsHelp() {
        const QStringList commands = readmeCommands();
        QVERIFY2(commands.size() >= 10, "the README shows the commands");
        static const QRegularExpression option(QStringLiteral("--[a-z][a-z0-9-]*"));
        for (const QString& command : commands) {
            const QStringList words = commandWords(command);
            QVERIFY2(!words.isEmpty(), qPrintable(command));
            CliResult help = runCli(words + QStringList{s("--help")});
            QVERIFY2(help.exitCode == 0, qPrintable(command + s(": ") + help.err));
            for (const auto& match : option.globalMatch(command)) {
                const QString flag = match.captured();
                if (flag == s("--help"))
                    continue;
                QVERIFY2(help.out.contains(flag),
                         qPrintable(command + s(": --help does not list ") + flag));
            }
        }
    }

    void theCommandsShownWholeRun() {
        for (const QStringList& args :
             {QStringList{s("arch"), s("--list")}, QStringList{s("zoo"), s("--list")}}) {
            CliResult r = runCli(args);
            QVERIFY2(r.exitCode == 0 && !r.out.isEmpty(), qPrintable(r.err));
        }
    }
};

QTEST_MAIN(TestCliReadme)
#include "test_cli_readme.moc"
