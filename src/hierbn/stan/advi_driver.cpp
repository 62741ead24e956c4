// Minimal command-line driver for Stan's meanfield ADVI service
// (stan::services::experimental::advi::meanfield), built against the Stan sources that
// PyStan's httpstan ships, for machines without CmdStan (PyStan 3 exposes NUTS only).
// Usage: advi_exe DATA.json OUTPUT.csv SEED [iter tol_rel_obj eta adapt_iter output_samples]
// Defaults are CmdStan's `variational` defaults. The model is compiled in (stanc C++).
#include <stan/callbacks/interrupt.hpp>
#include <stan/callbacks/stream_logger.hpp>
#include <stan/callbacks/stream_writer.hpp>
#include <stan/callbacks/writer.hpp>
#include <stan/io/empty_var_context.hpp>
#include <stan/io/json/json_data.hpp>
#include <stan/model/model_base.hpp>
#include <stan/services/experimental/advi/meanfield.hpp>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>

stan::model::model_base& new_model(stan::io::var_context& data_context, unsigned int seed,
                                   std::ostream* msg_stream);

int main(int argc, char* argv[]) {
  if (argc < 4) {
    std::cerr << "usage: " << argv[0]
              << " DATA.json OUTPUT.csv SEED [iter tol_rel_obj eta adapt_iter output_samples]\n";
    return 2;
  }
  const unsigned int seed = static_cast<unsigned int>(std::stoul(argv[3]));
  const int max_iterations = argc > 4 ? std::atoi(argv[4]) : 10000;
  const double tol_rel_obj = argc > 5 ? std::atof(argv[5]) : 0.01;
  const double eta = argc > 6 ? std::atof(argv[6]) : 1.0;
  const int adapt_iterations = argc > 7 ? std::atoi(argv[7]) : 50;
  const int output_samples = argc > 8 ? std::atoi(argv[8]) : 1000;

  std::ifstream data_stream(argv[1]);
  if (!data_stream) {
    std::cerr << "cannot open data file " << argv[1] << "\n";
    return 2;
  }
  stan::json::json_data data(data_stream);
  stan::model::model_base& model = new_model(data, seed, &std::cerr);
  stan::io::empty_var_context init;
  std::ofstream output(argv[2]);
  stan::callbacks::stream_writer parameter_writer(output, "# ");
  stan::callbacks::writer init_writer;
  stan::callbacks::writer diagnostic_writer;
  stan::callbacks::stream_logger logger(std::cerr, std::cerr, std::cerr, std::cerr, std::cerr);
  stan::callbacks::interrupt interrupt;
  const int code = stan::services::experimental::advi::meanfield(
      model, init, seed, 1, 2.0, 1, 100, max_iterations, tol_rel_obj, eta, true,
      adapt_iterations, 100, output_samples, interrupt, logger, init_writer, parameter_writer,
      diagnostic_writer);
  delete &model;
  return code;
}
