// Built-in and user tours (tours.h).

#include "studio/tours.h"

#include "studio/studio_view.h"
#include "support/file.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace stagecraft::studio {

namespace {

/// Every step's views are Studio's; a model file is taken relative to the
/// tour file.
Status checkTour(io::Tour& tour, const QString& source, const QString& directory) {
    for (size_t i = 0; i < tour.steps.size(); ++i) {
        io::TourStep& step = tour.steps[i];
        for (size_t v = 0; v < step.views.size(); ++v)
            if (!parseStudioView(QString::fromStdString(step.views[v])))
                return Error(source.toStdString() + ": steps[" + std::to_string(i) + "].views[" +
                             std::to_string(v) + "]: unknown view '" + step.views[v] +
                             "' (expected " +
                             studioViewNames().join(QStringLiteral(", ")).toStdString() + ")");
        const QString model = QString::fromStdString(step.model);
        if (!directory.isEmpty() && !model.startsWith(QLatin1String("zoo:")) &&
            QFileInfo(model).isRelative())
            step.model = QDir(directory).filePath(model).toStdString();
    }
    return {};
}

Expected<io::Tour> readTour(const QString& path, const QString& directory) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error(path.toStdString() + ": cannot read the tour");
    const QByteArray bytes = file.readAll();
    SC_ASSIGN_OR_RETURN(
        io::Tour tour,
        io::readTourJson(std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())),
                         path.toStdString()));
    SC_RETURN_IF_ERROR(checkTour(tour, path, directory));
    return tour;
}

} // namespace

std::vector<io::Tour> builtInTours() {
    std::vector<io::Tour> tours;
    const QStringList files = QDir(QStringLiteral(":/tours"))
                                  .entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    for (const QString& name : files) {
        Expected<io::Tour> tour = readTour(QStringLiteral(":/tours/") + name, QString());
        if (tour.ok()) // a test reads every built-in tour and fails on a bad one
            tours.push_back(std::move(tour).value());
    }
    return tours;
}

Expected<io::Tour> loadTour(const QString& nameOrFile) {
    QStringList names;
    for (io::Tour& tour : builtInTours()) {
        if (QString::fromStdString(tour.name) == nameOrFile)
            return std::move(tour);
        names << QString::fromStdString(tour.name);
    }
    QFileInfo file(nameOrFile);
    if (!file.isFile())
        return Error("--tour: no built-in tour '" + nameOrFile.toStdString() +
                     "' and no such file (built in: " +
                     names.join(QStringLiteral(", ")).toStdString() + ")");
    return readTour(file.filePath(), file.absolutePath());
}

} // namespace stagecraft::studio
