// pt-BR catalogue, namespace `ctg` (keys are `ctg.*`).
export default {
};
