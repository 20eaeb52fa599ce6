// compose-check loads a compose file the way `docker compose config` does, with the compose
// specification's own library, and fails where Compose would only warn: on an unknown key (the
// specification's schema), on a variable that neither the env file nor a default sets, and on a
// bind mount whose source is not in the checkout. The process environment is not read, so what
// passes here passes on a machine that has only the env file.
//
//	go run . -file ../../docker-compose.yml -env-file ../../.env.example
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/dotenv"
	"github.com/compose-spec/compose-go/v2/template"
	"github.com/compose-spec/compose-go/v2/types"
	"go.yaml.in/yaml/v4"
)

func main() {
	file := flag.String("file", "docker-compose.yml", "the compose file")
	envFile := flag.String("env-file", ".env.example", "the env file that sets its variables")
	flag.Parse()
	problems, services, err := check(*file, *envFile)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", *file, err)
		os.Exit(1)
	}
	if len(problems) > 0 {
		for _, p := range problems {
			fmt.Fprintf(os.Stderr, "%s: %s\n", *file, p)
		}
		os.Exit(1)
	}
	fmt.Printf("%s: valid with %s; services: %s\n", *file, *envFile, strings.Join(services, ", "))
}

func check(file, envFile string) ([]string, []string, error) {
	content, err := os.ReadFile(file)
	if err != nil {
		return nil, nil, err
	}
	env, err := dotenv.GetEnvFromFile(types.Mapping{}, []string{envFile})
	if err != nil {
		return nil, nil, err
	}
	problems := unresolved(content, env)

	options, err := cli.NewProjectOptions(
		[]string{file},
		cli.WithWorkingDirectory(filepath.Dir(file)),
		cli.WithEnvFiles(envFile),
		cli.WithDotEnv,
		cli.WithResolvedPaths(true),
	)
	if err != nil {
		return nil, nil, err
	}
	project, err := options.LoadProject(context.Background())
	if err != nil {
		return nil, nil, err
	}
	problems = append(problems, missingBindSources(project)...)
	return problems, project.ServiceNames(), nil
}

// unresolved names each variable the file uses that the env file does not set and that has no
// default: Compose would warn and put an empty string in its place.
func unresolved(content []byte, env map[string]string) []string {
	var model map[string]any
	if err := yaml.Unmarshal(content, &model); err != nil {
		return []string{err.Error()}
	}
	var problems []string
	for name, variable := range template.ExtractVariables(model, template.DefaultPattern) {
		if _, set := env[name]; set {
			continue
		}
		// ${VAR:?message} fails in the loader with its own message; ${VAR:-x} and ${VAR-x} have a default.
		if variable.Required || variable.DefaultValue != "" || variable.PresenceValue != "" {
			continue
		}
		problems = append(problems, fmt.Sprintf("variable %s is set neither by the env file nor by a default", name))
	}
	sort.Strings(problems)
	return problems
}

// missingBindSources names each bind mount whose source does not exist: Docker would create an
// empty directory there and the service would start without its configuration.
func missingBindSources(project *types.Project) []string {
	var problems []string
	for _, service := range project.Services {
		for _, volume := range service.Volumes {
			if volume.Type != types.VolumeTypeBind {
				continue
			}
			if _, err := os.Stat(volume.Source); err != nil {
				problems = append(problems, fmt.Sprintf("service %s mounts %s, which does not exist", service.Name, volume.Source))
			}
		}
	}
	sort.Strings(problems)
	return problems
}
