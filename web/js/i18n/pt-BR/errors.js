// pt-BR catalogue, namespace `errors` (keys are `errors.*`).
export default {
};
